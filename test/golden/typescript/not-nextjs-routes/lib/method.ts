export default function isPost(req: { method: string }): boolean {
  return req.method === 'POST';
}
