export default function allow(req: { method?: string }): boolean {
  switch (req.method) {
    case 'GET':
      return true;
    default:
      return false;
  }
}
