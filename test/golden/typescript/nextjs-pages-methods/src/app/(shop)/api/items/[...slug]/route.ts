export async function GET(request: Request, { params }: { params: { slug: string[] } }): Promise<Response> {
  return Response.json({ slug: params.slug });
}

export const POST = async (request: Request): Promise<Response> => Response.json(await request.json());

async function replace(request: Request): Promise<Response> {
  return new Response(null, { status: 204 });
}

export { replace as PUT };
