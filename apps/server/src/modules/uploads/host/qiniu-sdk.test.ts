/**
 * The provider's official Node SDK (qiniu 7.x) against the embedded upload host, pointed at it
 * as it would be at the cloud (a Zone whose up host is this host): form upload and resumable
 * upload v2 in several parts. The browser SDK (qiniu-js) is exercised by apps/web/e2e/uploads.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import qiniu from 'qiniu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MB, pngBytes, PREFIX, startHost, token, type TestHost } from './test-support.ts';

const RETURN_BODY = '{"key":"$(key)","hash":"$(etag)","fsize":$(fsize),"mimeType":"$(mimeType)","name":"$(fname)","note":"$(x:note)"}';

let host: TestHost;
beforeAll(async () => {
  host = await startHost({ maxImageBytes: 20 * MB });
});
afterAll(async () => {
  await host.close();
});

let counter = 0;
const freshKey = () => `evidence/proof/202603/sdk${++counter}`;
const stored = (key: string) => readFile(join(host.dataDir, 'uploads', 'files', key));

/** The provider's etag, computed here from its published definition (SHA-1 per 4 MB block). */
function expectedEtag(data: Buffer): string {
  const block = 4 * MB;
  const sha1 = (b: Buffer) => createHash('sha1').update(b).digest();
  const blocks: Buffer[] = [];
  for (let i = 0; i < Math.max(1, Math.ceil(data.length / block)); i++) blocks.push(sha1(data.subarray(i * block, (i + 1) * block)));
  const body =
    blocks.length === 1
      ? Buffer.concat([Buffer.from([0x16]), blocks[0]!])
      : Buffer.concat([Buffer.from([0x96]), sha1(Buffer.concat(blocks))]);
  return body.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** The SDK's configuration for a region whose every service is this host (no HTTPS, no discovery). */
function sdkConfig(): qiniu.conf.Config {
  const hostName = `${new URL(host.base).host}${PREFIX}`;
  const zone = new qiniu.conf.Zone([hostName], [hostName], hostName, hostName, hostName, hostName);
  return new qiniu.conf.Config({ zone, useHttpsDomain: false });
}

function resumeExtra(partSize: number, params: Record<string, string> = {}): qiniu.resume_up.PutExtra {
  return new qiniu.resume_up.PutExtra('big.png', params, undefined, undefined, undefined, partSize, 'v2');
}

describe('qiniu Node SDK, form upload', () => {
  it('uploads a buffer with custom variables and gets the returnBody', async () => {
    const key = freshKey();
    const file = pngBytes(300_000, 4);
    const extra = new qiniu.form_up.PutExtra('proof.png', { 'x:note': 'from node' });
    const { data, resp } = await new qiniu.form_up.FormUploader(sdkConfig()).put(token({ key, returnBody: RETURN_BODY }), key, file, extra);
    expect(resp.statusCode).toBe(200);
    expect(data).toEqual({
      key,
      hash: expectedEtag(file),
      fsize: file.length,
      mimeType: 'image/png',
      name: 'proof.png',
      note: 'from node',
    });
    expect((await stored(key)).equals(file)).toBe(true);
  });

  it('uploads a local file with the crc32 check on, and refuses a non-image with the provider answer', async () => {
    const key = freshKey();
    const file = pngBytes(50_000, 5);
    const path = join(host.dataDir, 'sdk-form.png');
    await writeFile(path, file);
    const extra = new qiniu.form_up.PutExtra();
    extra.checkCrc = true;
    const ok = await new qiniu.form_up.FormUploader(sdkConfig()).putFile(token({ key }), key, path, extra);
    expect(ok.resp.statusCode).toBe(200);
    expect(ok.data).toEqual({ hash: expectedEtag(file), key });

    const other = freshKey();
    const text = Buffer.from('plain text, not a picture\n'.repeat(100));
    const refused = await new qiniu.form_up.FormUploader(sdkConfig()).put(token({ key: other }), other, text, null);
    expect(refused.resp.statusCode).toBe(403);
    expect(refused.data).toEqual({ error: 'limited mimeType: this file type (unknown) is forbidden to upload' });
  });
});

describe('qiniu Node SDK, resumable upload v2', () => {
  it('uploads a stream in three 4 MB parts (init with an empty JSON body, parts, complete)', async () => {
    const key = freshKey();
    const file = pngBytes(9 * MB + 12_345, 6);
    const seen: string[] = [];
    const watch = (request: IncomingMessage) => seen.push(`${request.method} ${request.url}`);
    host.app.server.on('request', watch);
    const uploader = new qiniu.resume_up.ResumeUploader(sdkConfig());
    const { data, resp } = await uploader.putStream(
      token({ key, returnBody: RETURN_BODY }),
      key,
      Readable.from([file]),
      file.length,
      resumeExtra(4 * MB, { 'x:note': 'resumed' }),
    );
    expect(resp.statusCode).toBe(200);
    expect(data).toEqual({ key, hash: expectedEtag(file), fsize: file.length, mimeType: 'image/png', name: 'big.png', note: 'resumed' });
    expect((await stored(key)).equals(file)).toBe(true);
    host.app.server.off('request', watch);
    expect(seen.map((line) => line.replace(/[0-9a-f]{32}/, '<id>').replace(/objects\/[^/]+/, 'objects/<key>'))).toEqual([
      `POST ${PREFIX}/buckets/clearplay/objects/<key>/uploads`,
      `PUT ${PREFIX}/buckets/clearplay/objects/<key>/uploads/<id>/1`,
      `PUT ${PREFIX}/buckets/clearplay/objects/<key>/uploads/<id>/2`,
      `PUT ${PREFIX}/buckets/clearplay/objects/<key>/uploads/<id>/3`,
      `POST ${PREFIX}/buckets/clearplay/objects/<key>/uploads/<id>`,
    ]);
  });

  it('uploads a file in 1 MB parts, which do not align with the 4 MB etag blocks', async () => {
    const key = freshKey();
    const file = pngBytes(5 * MB + 777, 7);
    const path = join(host.dataDir, 'sdk-resume.png');
    await writeFile(path, file);
    const { data, resp } = await new qiniu.resume_up.ResumeUploader(sdkConfig()).putFile(token({ key }), key, path, resumeExtra(MB));
    expect(resp.statusCode).toBe(200);
    expect(data).toEqual({ hash: expectedEtag(file), key });
    expect((await stored(key)).equals(file)).toBe(true);
  });

  it('gets the provider answers for a token of another key and for an existing key', async () => {
    const key = freshKey();
    const file = pngBytes(2 * MB, 8);
    const wrong = await new qiniu.resume_up.ResumeUploader(sdkConfig()).putStream(
      token({ key: 'evidence/proof/202603/other' }),
      key,
      Readable.from([file]),
      file.length,
      resumeExtra(MB),
    );
    expect(wrong.resp.statusCode).toBe(403);
    expect(wrong.data).toEqual({ error: "key doesn't match with scope" });

    const first = await new qiniu.resume_up.ResumeUploader(sdkConfig()).putStream(
      token({ key }),
      key,
      Readable.from([file]),
      file.length,
      resumeExtra(MB),
    );
    expect(first.resp.statusCode).toBe(200);
    const again = await new qiniu.resume_up.ResumeUploader(sdkConfig()).putStream(
      token({ key }),
      key,
      Readable.from([file]),
      file.length,
      resumeExtra(MB),
    );
    expect(again.resp.statusCode).toBe(614);
    expect(again.data).toEqual({ error: 'file exists' });
  });
});
