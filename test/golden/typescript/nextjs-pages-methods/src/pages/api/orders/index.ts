import type { NextApiRequest, NextApiResponse } from 'next';

export default async function orders(req: NextApiRequest, res: NextApiResponse): Promise<void> {
  if (req.method === 'POST') {
    res.status(201).json({});
  } else if (req.method === 'GET') {
    res.status(200).json([]);
  } else {
    res.status(405).end();
  }
}
