export default function refund(req, res) {
  if (req.method !== 'POST') return res.status(405).end();
  return res.status(202).end();
}
