/**
 * @module transports — the transport interface, newline-delimited stdio framing, SSE framing and the
 * node:http pieces every HTTP binding shares.
 */
export {
  admitFrame,
  createLinkedPair,
  OUTBOUND_DEFAULTS,
  type FrameMeta,
  type OutboundLimits,
  type Transport,
  type TransportSink,
} from './transport.ts';
export { DEFAULT_MAX_LINE_BYTES, lineSplitter, stdioTransport, type StdioOptions } from './stdio.ts';
export { SseParser, sseEvents, type SseEvent } from './sse.ts';
export { checkOrigin, HTTP_TIMEOUTS, HttpFailure, LOOPBACK_HOSTS, type HttpServerTimeouts, type ListeningHttp, type OriginPolicy } from './http.ts';
export type { HeaderRecord, HttpRequest, HttpResponse, HttpStream } from './exchange.ts';
