export async function GET(): Promise<Response> {
  return new Response('not a route file');
}
