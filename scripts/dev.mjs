#!/usr/bin/env node
// `npm run dev`: the API with reload on :3000 and Vite on :5173 (proxying /api to the API).
import { spawn } from 'node:child_process';

const procs = [
  spawn('npm', ['run', 'dev', '-w', '@clearplay/server'], { stdio: 'inherit', env: { ...process.env, DEMO: process.env.DEMO ?? '1' } }),
  spawn('npm', ['run', 'dev', '-w', '@clearplay/web'], { stdio: 'inherit' }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const p of procs)
  p.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
