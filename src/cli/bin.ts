import { EXIT, main } from './main.js';

const status = await main();
// `serve` keeps the process alive until stdin closes; every other command is finished here.
if (status !== EXIT.ok || !process.argv.includes('serve')) process.exitCode = status;
