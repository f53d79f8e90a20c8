// The upload host's side of the network for the image uploader's tests: a real HTTP server on
// 127.0.0.1 that answers the provider's direct upload (multipart POST: file, token, key,
// fname) as the embedded host and the provider do, so the provider's SDK runs unchanged in
// jsdom (its XMLHttpRequest really sends). The test decides each answer and may hold it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedUpload {
  key: string;
  token: string;
  fname: string;
  file: { name: string; type: string; bytes: Buffer };
}

export interface HostAnswer {
  status: number;
  body: unknown;
}

export interface FakeUploadHost {
  /** `127.0.0.1:<port>/upload`: the SDK's `uphost`. */
  uphost: string;
  /** Every upload the host has read, in order. */
  received: ReceivedUpload[];
  /** Decides the next answers (default: stored, as the host's returnBody). May be slow: the SDK waits. */
  answer: (upload: ReceivedUpload) => HostAnswer | Promise<HostAnswer>;
  close: () => Promise<void>;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What the host stores and answers for an upload whose content is an image (the put policy's returnBody). */
export function stored(upload: ReceivedUpload): HostAnswer {
  if (!upload.file.bytes.subarray(0, PNG.length).equals(PNG)) {
    return { status: 403, body: { error: 'limited mimeType: this file type (unknown) is forbidden to upload' } };
  }
  return {
    status: 200,
    body: {
      url: `/upload/files/${upload.key}`,
      key: upload.key,
      hash: 'Fh8xVqod2MQ1mocfI4S4KpRL6D98',
      fsize: upload.file.bytes.length,
      mimeType: 'image/png',
    },
  };
}

/** A PNG file of `size` bytes (the signature, then filler): what the host accepts as an image. */
export function pngFile(name: string, size = 2048): File {
  const bytes = new Uint8Array(size);
  bytes.set(PNG);
  return new File([bytes], name, { type: 'image/png' });
}

const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'POST, OPTIONS', 'Access-Control-Allow-Headers': '*' };

async function readUpload(request: IncomingMessage): Promise<ReceivedUpload> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  // Node's own multipart reader (undici's Response.formData).
  const form = await new Response(Buffer.concat(chunks), { headers: { 'Content-Type': request.headers['content-type'] ?? '' } }).formData();
  const file = form.get('file');
  if (file === null || typeof file === 'string') throw new Error('the upload has no file part');
  return {
    key: String(form.get('key')),
    token: String(form.get('token')),
    fname: String(form.get('fname')),
    file: { name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) },
  };
}

export async function startUploadHost(): Promise<FakeUploadHost> {
  const host: FakeUploadHost = {
    uphost: '',
    received: [],
    answer: stored,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // an answer still held, the SDK's keep-alive
      }),
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      response
        .writeHead(status, { ...cors, 'Content-Type': 'application/json' })
        .end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
    if (request.method !== 'POST' || request.url !== '/upload') return send(404, { error: 'no such route' });
    void readUpload(request)
      .then(async (upload) => {
        host.received.push(upload);
        const { status, body } = await host.answer(upload);
        send(status, body);
      })
      .catch((error: unknown) => send(400, { error: `invalid multipart body: ${String(error)}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host.uphost = `127.0.0.1:${(server.address() as AddressInfo).port}/upload`;
  return host;
}
