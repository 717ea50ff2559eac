/**
 * @module transports — the transport interface (and an in-memory pair of transports), newline-delimited
 * stdio, reading an SSE stream, and the HTTP request and response shapes and options every HTTP binding shares.
 */
export { createLinkedPair, type FrameMeta, type OutboundLimits, type Transport, type TransportSink } from './transport.ts';
export { stdioTransport, type StdioOptions } from './stdio.ts';
export { SseLimitError, sseEvents, type SseEvent, type SseLimits } from './sse.ts';
export type { HttpServerTimeouts, OriginPolicy } from './http.ts';
export type { HeaderRecord, HttpRequest, HttpResponse, HttpStream } from './exchange.ts';
