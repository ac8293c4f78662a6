import { withAuth } from "../../auth";
export default withAuth(async (req, res) => res.end());