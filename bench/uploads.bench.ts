// Evidence uploads: a 50 MB image through the embedded upload host on loopback, the way the
// SDK sends it (multipart v2: 4 MB parts, 3 at a time), beside a plain copy of the same bytes
// in the same run; and the server's resident memory while it streams.
import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_PASSWORD, fmt, ratio, startApp, type Section } from './lib.ts';

const MB = 1024 * 1024;
const SIZE = 50 * MB;
const PART = 4 * MB;
const CONCURRENCY = 3;
const RUNS = 3;

/** A valid 24-bit BMP of random pixels: a real image, incompressible, exactly `size` bytes. */
function bmp(size: number): Buffer {
  const buf = randomBytes(size);
  const width = 4096;
  const rowBytes = width * 3;
  const height = Math.floor((size - 54) / rowBytes);
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(size, 2);
  buf.writeUInt32LE(0, 6);
  buf.writeUInt32LE(54, 10);
  buf.writeUInt32LE(40, 14);
  buf.writeInt32LE(width, 18);
  buf.writeInt32LE(height, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(24, 28);
  buf.writeUInt32LE(0, 30);
  buf.writeUInt32LE(rowBytes * height, 34);
  buf.writeInt32LE(2835, 38);
  buf.writeInt32LE(2835, 42);
  buf.writeUInt32LE(0, 46);
  buf.writeUInt32LE(0, 50);
  return buf;
}

const rssMb = async (pid: number) => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
};

const b64url = (s: string) => Buffer.from(s).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');

async function uploadChunked(base: string, bearer: string, image: Buffer): Promise<number> {
  const tokenRes = await fetch(`${base}/api/admin/upload/token?purpose=proof`, { headers: { authorization: bearer } });
  const { data } = (await tokenRes.json()) as { data: { uploadToken: string; key: string } };
  const auth = { authorization: `UpToken ${data.uploadToken}` };
  const objectUrl = `${base}/upload/buckets/clearplay/objects/${b64url(data.key)}/uploads`;
  const started = performance.now();
  const init = (await (await fetch(objectUrl, { method: 'POST', headers: auth })).json()) as { uploadId: string };
  const parts: { etag: string; partNumber: number }[] = [];
  const numbers = Array.from({ length: Math.ceil(image.length / PART) }, (_, i) => i + 1);
  const worker = async () => {
    for (let n = numbers.shift(); n !== undefined; n = numbers.shift()) {
      const res = await fetch(`${objectUrl}/${init.uploadId}/${n}`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body: image.subarray((n - 1) * PART, n * PART),
      });
      if (res.status !== 200) throw new Error(`part ${n}: ${res.status} ${await res.text()}`);
      parts.push({ etag: ((await res.json()) as { etag: string }).etag, partNumber: n });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  parts.sort((a, b) => a.partNumber - b.partNumber);
  const done = await fetch(`${objectUrl}/${init.uploadId}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ parts, fname: 'evidence.bmp', mimeType: 'image/bmp' }),
  });
  if (done.status !== 200) throw new Error(`complete: ${done.status} ${await done.text()}`);
  const elapsed = performance.now() - started;
  const { url } = (await done.json()) as { url: string };
  const back = await fetch(base + url, { method: 'HEAD' });
  if (Number(back.headers.get('content-length')) !== image.length) throw new Error('stored size differs');
  return elapsed;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<Section[]> {
  const dir = await mkdtemp(join(tmpdir(), 'clearplay-bench-up-'));
  const app = await startApp({ UPLOAD_MAX_IMAGE_MB: '64' });
  try {
    const image = bmp(SIZE);
    const src = join(dir, 'src.bmp');
    await writeFile(src, image);
    const login = await fetch(`${app.url}/api/admin/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'superadmin', password: ADMIN_PASSWORD }),
    });
    const bearer = `Bearer ${((await login.json()) as { data: { token: string } }).data.token}`;
    const pid = app.child.pid!;

    const copies: number[] = [];
    const uploads: number[] = [];
    const rssBefore = await rssMb(pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      void rssMb(pid).then((mb) => (rssPeak = Math.max(rssPeak, mb)));
    }, 20);
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await copyFile(src, join(dir, `copy-${i}.bmp`));
      copies.push(performance.now() - t0);
      uploads.push(await uploadChunked(app.url, bearer, image));
    }
    clearInterval(sampler);
    const up = SIZE / MB / (median(uploads) / 1000);
    const cp = SIZE / MB / (median(copies) / 1000);
    const body = `| figure | upload through the embedded host | plain file copy (\`fs.copyFile\`) | ratio |
|---|---:|---:|---:|
| 50 MB image, MB/s (median of ${RUNS}) | ${fmt(up)} | ${fmt(cp)} | **${ratio(up, cp)}** |

| server memory | MB |
|---|---:|
| resident before the uploads | ${fmt(rssBefore)} |
| peak while uploading ${RUNS} × 50 MB | ${fmt(rssPeak)} |
| growth | **${fmt(rssPeak - rssBefore)}** (the file is ${SIZE / MB} MB) |

The client sends the file as qiniu-js does for files over 4 MB: multipart v2 init, 13 parts of
4 MB, 3 in flight, then complete; the host verifies the token on every call, checks the first
part's magic bytes, streams each part to disk while hashing it, and joins the parts on complete.
Real HTTP on loopback; resident memory read from /proc every 20 ms.`;
    return [{ title: 'Evidence upload throughput and memory', body }];
  } finally {
    await app.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
