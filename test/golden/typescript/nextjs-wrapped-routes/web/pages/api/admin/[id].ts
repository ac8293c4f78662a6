async function handler(req, res) { res.end(); }
export default withSentry(withAuth(handler, { roles: ['admin'] }));