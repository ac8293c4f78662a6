// Stands in for the MCP SDK's Ajv validator provider in the bundle (see scripts/build.mjs): the server only
// needs a JSON-Schema validator to check elicitation answers, and meshlens never asks the client anything.
export class AjvJsonSchemaValidator {
  getValidator() {
    throw new Error('meshlens does not validate elicitation answers: it never sends elicitation requests');
  }
}
