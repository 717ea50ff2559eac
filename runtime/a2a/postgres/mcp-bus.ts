/**
 * @module a2a/postgres/mcp-bus — an MCP server's catalog changes (list_changed, resources/updated) shared
 * by its instances through PostgreSQL LISTEN/NOTIFY (bus.ts): the NotificationBus of McpServerOptions. Each
 * instance tags what it publishes with its own id and skips its own, so a change reaches its clients once.
 * Delivery is as NOTIFY's: to the instances listening when it commits; one whose listening connection was
 * down meanwhile misses it (a listen stream's client lists again after a reconnect anyway).
 */
import { randomUUID } from 'node:crypto';
import type { CatalogChange, NotificationBus } from '../../mcp/server/types.ts';
import type { PostgresBus } from './bus.ts';

export interface McpNotificationBusOptions {
  /** The NOTIFY channel of this server's instances. Default `wiregen_mcp`. */
  readonly channel?: string;
  readonly log?: (line: string) => void;
}

/** What travels on the channel: the publishing instance, and the change. */
interface Wire {
  readonly o: string;
  readonly c: CatalogChange;
}

/** The NotificationBus of one instance on `bus` (e.g. a PostgresCluster's `bus`, or `new PostgresBus(pool)`). */
export function mcpNotificationBus(bus: PostgresBus, options: McpNotificationBusOptions = {}): NotificationBus {
  const channel = options.channel ?? 'wiregen_mcp';
  const self = randomUUID();
  return {
    publish: (change) => bus.publish(channel, JSON.stringify({ o: self, c: change } satisfies Wire)),
    subscribe(listener) {
      let stop: (() => void) | undefined;
      let stopped = false;
      bus
        .listen(channel, (payload) => {
          const wire = JSON.parse(payload) as Wire;
          if (wire.o !== self) listener(wire.c);
        })
        .then(
          (unlisten) => (stopped ? unlisten() : (stop = unlisten)),
          (err: unknown) => options.log?.(`MCP change notifications not received: ${(err as Error).message}`),
        );
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}
