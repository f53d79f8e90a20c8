import { Type, type Static, type TLiteral } from 'typebox';
import { UPLOAD_PURPOSES } from './constants/uploads.ts';

/**
 * Evidence images: the image uploader, the upload token and result
 * (`GET /admin/upload/token`), the storage limits (docs/product.md "The back office").
 *
 * The browser uploads with the provider's own SDK (qiniu-js). The server only hands out a
 * signed upload token for a key it chose; the bytes go to the provider, or, in the embedded
 * default, to this server's own implementation of the provider's upload API.
 */

/** One literal schema per purpose, typed as the tuple it is (a plain `map` would type the union `never`). */
type Literals<T extends readonly string[]> = { -readonly [K in keyof T]: TLiteral<T[K] & string> };
const purposeLiterals = UPLOAD_PURPOSES.map((p) => Type.Literal(p)) as unknown as Literals<typeof UPLOAD_PURPOSES>;

export const UploadTokenQuery = Type.Object(
  {
    purpose: Type.Union(purposeLiterals),
    /**
     * A key this server handed out earlier, to get a fresh token for the same key: an
     * interrupted chunked upload can then resume (the SDK's cache is keyed by file and key).
     */
    key: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type UploadTokenQuery = Static<typeof UploadTokenQuery>;

/**
 * Where the browser sends the bytes.
 * - `local`: the embedded upload host of this server, at `path` on the app's own origin.
 * - `qiniu`: the provider; `region` picks its upload hosts, or null for the SDK's host
 *   discovery query.
 */
export const UploadTarget = Type.Union([
  Type.Object({ provider: Type.Literal('local'), path: Type.String() }),
  Type.Object({
    provider: Type.Literal('qiniu'),
    region: Type.Union([Type.String(), Type.Null()]),
    upprotocol: Type.Union([Type.Literal('https'), Type.Literal('http')]),
  }),
]);
export type UploadTarget = Static<typeof UploadTarget>;

/** Spec §3 "Upload token response": uploadToken and key (plus where and how much to send). */
export const UploadTokenData = Type.Object({
  uploadToken: Type.String(),
  key: Type.String(),
  /** Unix seconds after which the token is refused. */
  deadline: Type.Integer(),
  target: UploadTarget,
  /** Largest accepted image, in bytes. */
  maxBytes: Type.Integer({ minimum: 1 }),
});
export type UploadTokenData = Static<typeof UploadTokenData>;

/**
 * Spec §3 "Upload result": what the upload host answers once the file is stored (the put
 * policy's returnBody, so the provider and the embedded host answer the same).
 */
export const UploadResult = Type.Object({
  url: Type.String(),
  key: Type.String(),
  hash: Type.String(),
  fsize: Type.Integer(),
  mimeType: Type.String(),
});
export type UploadResult = Static<typeof UploadResult>;
