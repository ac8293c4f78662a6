/**
 * `dapr run --app-id <id> … -- <program>` commands written in READMEs, Makefiles and shell scripts: how
 * many Dapr apps are started, with no deploy manifest anywhere. The app runs in the folder the command
 * runs in, so `cd` lines before it are followed: relative to the folder the previous `cd` reached, or,
 * when that names no folder, to the file's own folder (READMEs often `cd service` in one block and
 * `cd client` in the next, each from the README's folder), and so is the `working_dir` of an executable
 * README step. With neither, the app is matched by its id. Only a command that starts a program (`--`
 * followed by a command) names an app folder; `dapr run -f` is a multi-app run file, read elsewhere.
 */
import { learnt, type Finding, type ManifestReader, type ReadFile } from '../finding.js';
import { joinRel, normalizeRel, type WorkspaceFiles } from '../workspace-files.js';

const DOC_OR_SCRIPT = /^(?:readme[^/]*\.md|makefile|gnumakefile|[^/]*\.mk|[^/]*\.sh)$/i;
const DAPR_RUN = /(?:^|[\s;&|(])dapr\s+run\s/;
const APP_ID = /(?:^|\s)(?:--app-id|-a)(?:\s+|=)["']?([A-Za-z0-9][\w.-]*)/;
const RUN_FILE = /(?:^|\s)(?:-f|--run-file)(?:\s|=)/;
/** A program started right after the flags (`dapr run --app-id a --app-port 3000 node app.js`). */
const LAUNCHER =
  /\s(?:node|npm|npx|yarn|pnpm|deno|bun|python3?|uvicorn|gunicorn|flask|go|dotnet|java|mvn|\.\/mvnw|gradle|\.\/gradlew|cargo|ruby|bundle|rails|php|\.\/[\w.-]+)\s/;
/** `working_dir: node` in the header of an executable README step (mechanical-markdown). */
const WORKING_DIR = /^\s*working_dir:\s*["']?([^\s"']+)/;
const CD = /(?:^|[\s;&(])cd\s+["']?([^\s;&|"')]+)/g;

/** Lines with their `\` continuations joined, each with the line it starts on (1-based). */
function logicalLines(text: string): { text: string; line: number }[] {
  const out: { text: string; line: number }[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let joined = lines[i] ?? '';
    while (joined.endsWith('\\') && i + 1 < lines.length)
      joined = `${joined.slice(0, -1)} ${lines[++i] ?? ''}`;
    out.push({ text: joined, line: start + 1 });
  }
  return out;
}

function readOne(file: ReadFile, workspace: WorkspaceFiles): Finding[] {
  if (!DAPR_RUN.test(file.text)) return [];
  const out: Finding[] = [];
  let cwd = file.folder;
  for (const { text, line } of logicalLines(file.text)) {
    // Dapr's READMEs are run as tests by steps whose header names the folder they run in.
    const step = WORKING_DIR.exec(text)?.[1];
    if (step !== undefined) cwd = changeDir(file.folder, step, file, workspace);
    const run = DAPR_RUN.exec(text);
    const cds = [...text.matchAll(CD)];
    // `cd a && dapr run … && cd ..`: only the `cd`s before the command decide where it runs.
    for (const match of cds)
      if (!run || match.index < run.index) cwd = changeDir(cwd, match[1] ?? '', file, workspace);
    if (!run) continue;
    const command = text.slice(run.index);
    const id = APP_ID.exec(command)?.[1];
    const app = command.split(/\s--\s/)[0] ?? '';
    if (id !== undefined && startsProgram(command) && !RUN_FILE.test(app))
      out.push(...appFindings(id, cwd, file, line, workspace));
    for (const match of cds)
      if (match.index > run.index) cwd = changeDir(cwd, match[1] ?? '', file, workspace);
  }
  return out;
}

/** Where `cd target` leads from `cwd`, else from the file's folder; unchanged when neither is a folder. */
function changeDir(cwd: string, target: string, file: ReadFile, workspace: WorkspaceFiles): string {
  const fromCwd = normalizeRel(joinRel(cwd, target));
  if (fromCwd !== undefined && workspace.has(fromCwd)) return fromCwd;
  const fromFile = normalizeRel(joinRel(file.folder, target));
  return fromFile !== undefined && workspace.has(fromFile) ? fromFile : cwd;
}

/** `dapr run … -- <program>`, or the older form with the program straight after the flags. */
const startsProgram = (command: string): boolean => /\s--\s+\S/.test(command) || LAUNCHER.test(command);

/**
 * The app `id` run in `cwd`. With no `cd` before it, a README often assumes its reader is already in the
 * app's folder: the app is then found by its id among the units the workspace declares, never assumed to
 * be the README's folder.
 */
function appFindings(
  id: string,
  cwd: string,
  file: ReadFile,
  line: number,
  workspace: WorkspaceFiles,
): Finding[] {
  const from = learnt(file.path, line, 'dapr run --app-id');
  const moved = cwd !== file.folder && cwd !== '.' && workspace.has(cwd);
  const deployment: Finding = {
    type: 'deployment',
    key: `dapr-cli:${file.path}#${id}@${moved ? cwd : ''}`,
    ...(moved ? { folder: cwd } : {}),
    images: [],
    names: [{ name: id, from }],
    env: [],
    kinds: [],
    from,
  };
  return moved ? [deployment, { type: 'unit', folder: cwd, role: 'built', from }] : [deployment];
}

export const daprCliReader: ManifestReader = {
  id: 'dapr run command',
  matches: (name) => DOC_OR_SCRIPT.test(name),
  read: (files, workspace) => files.flatMap((file) => readOne(file, workspace)),
};
