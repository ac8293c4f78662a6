/**
 * The thin clients of a workspace daemon: `serve` over stdio and an operation command load this before
 * they know whether a daemon answers them. The build bundles it into one file of its own (no shared
 * chunks), because a Node start that reads one file instead of twenty is what keeps them near `node -e ''`.
 */
export { attachToDaemon } from './serve-attach.js';
export { answerThroughDaemon } from './cli-attach.js';
