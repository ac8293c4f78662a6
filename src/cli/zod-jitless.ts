import { config } from 'zod';

// By default zod compiles a parser per object schema (`new Function`) on its first parse; a CLI run or a
// server session parses each schema a handful of times, so the compiling costs more than it saves (about a
// third of the zod work before `serve` answers `initialize`). The flag is read when a schema is built:
// import this module before any module that builds schemas.
config({ jitless: true });
