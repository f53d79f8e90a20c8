import { Envelope, ErrorData } from '@clearplay/contract';
import type { TSchema } from 'typebox';

/** The success envelope. `msg` stays 'ok' in every locale: clients show it only on errors. */
export const ok = <T>(data: T) => ({ status: 200, msg: 'ok', data }) as const;

export const ErrorEnvelope = Envelope(ErrorData);

/** Response schemas of a route: its success data, plus the error envelope for the docs and serializer. */
export const responses = <T extends TSchema>(data: T) => ({ 200: Envelope(data), '4xx': ErrorEnvelope, '5xx': ErrorEnvelope }) as const;
