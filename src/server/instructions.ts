/** Clients truncate server instructions around 2 KB, so the text stays under this (a test holds it). */
export const MAX_INSTRUCTIONS_CHARS = 2048;

export const SERVER_INSTRUCTIONS = `meshlens indexes this multi-service workspace and answers structural questions from an AST index.

Use meshlens instead of grep/find when you need:
- where a symbol (class, function, type, RPC, topic) is declared: code search (smart_search);
- a file's declarations and imports, one declaration's body, files by path, or a regex over the indexed text (secrets masked): code outline, expand, files, grep (outline_file, expand_symbol, find_files, grep_code);
- a name's definition (from path:line), references, callers, callees, implementations: code definition, references, callers, callees, implementations (find_definition, …);
- who imports or depends on a type, package or contract: contracts dependents (find_dependents);
- who defines, implements and calls a gRPC method, and whether a .proto edit breaks the wire format: contracts grpc (analyze_grpc);
- what an RPC, topic, route, function (symbol) or the working tree (diff) impacts across services, and tests to run: contracts impact (analyze_impact); call chains: graph calls (trace_calls);
- what the team's docs, ADRs and RFCs say: docs search (search_docs);
- the service topology: graph visualize (visualize_mesh);
- history: git status, recent, touching, blame, blame_symbol, symbol_history, diff, diff_outline (git_status, …);
- notes agents keep on this workspace: memory search/get/list, memory_put to write (search_notes, put_note).

Rules:
- A zero result is authoritative for what the index covers: the answer says what was searched. Do not re-check it with grep; follow the suggested next call instead.
- Lists are paged. When a footer says "More: offset: N" (or a cursor), call again with it.
- A call made while the first index is built waits for it (up to 30 s). If an answer still says "still indexing", call admin status (index_status) and retry shortly.
- Paths: workspace-relative, or absolute inside a configured root; anything outside is refused.
- For free text, literals and comments use code grep (grep_code), not a shell grep: same files, secrets masked.`;

/**
 * For a session of an API key: the key's tier may hide any tool, and the instructions must not name what it
 * cannot see, so they name none. They are sent once, at `initialize`, for the principal the session is
 * created for.
 */
export const KEY_SESSION_INSTRUCTIONS = `meshlens indexes this multi-service workspace and answers structural questions from an AST index. Use the tools that tools/list gives this key instead of grep/find; each description says what it answers and when to prefer another.

Rules:
- A zero result is authoritative for what the index covers: the answer says what was searched. Do not re-check it with grep; follow the suggested next call instead.
- Lists are paged. When a footer says "More: offset: N" (or a cursor), call again with it.
- A call made while the first index is built waits for it (up to 30 s). If an answer still says "still indexing", retry shortly.
- Paths: workspace-relative, or absolute inside a configured root; anything outside is refused.`;
