/**
 * A tiny DNS server on 127.0.0.1 (UDP) for verification tests: answers PTR,
 * A and AAAA questions from fixed tables and NXDOMAIN otherwise. Enough of
 * RFC 1035 for one question per message; anything it cannot read is
 * dropped. Start failures reject: a test needing it never skips.
 */
import { createSocket } from "node:dgram";
import { parseIp } from "../../src/audit/ip.js";

export interface DnsTables {
  /** Address → PTR names (the server builds the in-addr.arpa / ip6.arpa name). */
  readonly ptr?: Readonly<Record<string, readonly string[]>>;
  /** Name → IPv4 addresses. */
  readonly a?: Readonly<Record<string, readonly string[]>>;
  /** Name → IPv6 addresses. */
  readonly aaaa?: Readonly<Record<string, readonly string[]>>;
}

export interface DnsServer {
  /** `127.0.0.1:<port>`, for Resolver#setServers and --dns-server. */
  readonly address: string;
  /** Questions asked, as `TYPE name`. */
  readonly asked: string[];
  close(): Promise<void>;
}

/** The reverse-lookup name of an address (`4.3.2.1.in-addr.arpa`, nibbles `….ip6.arpa`). */
export function reverseName(ip: string): string {
  const b = parseIp(ip);
  if (b === null) throw new Error(`not an address: ${ip}`);
  if (!ip.includes(":")) return `${[...b.slice(12)].reverse().join(".")}.in-addr.arpa`;
  const nibbles: string[] = [];
  for (const byte of b) nibbles.push((byte >> 4).toString(16), (byte & 15).toString(16));
  return `${nibbles.reverse().join(".")}.ip6.arpa`;
}

function encodeName(name: string): Buffer {
  const parts = name
    .replace(/\.$/, "")
    .split(".")
    .map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l, "ascii")]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function readQuestion(msg: Buffer): { name: string; type: number; end: number } | null {
  let i = 12;
  const labels: string[] = [];
  while (i < msg.length) {
    const len = msg[i]!;
    if (len === 0) break;
    if (len > 63 || i + 1 + len > msg.length) return null;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString("ascii"));
    i += 1 + len;
  }
  if (i + 5 > msg.length) return null;
  return { name: labels.join(".").toLowerCase(), type: msg.readUInt16BE(i + 1), end: i + 5 };
}

const TYPES: Record<number, string> = { 1: "A", 12: "PTR", 28: "AAAA" };

function answer(msg: Buffer, tables: DnsTables, asked: string[]): Buffer | null {
  if (msg.length < 12) return null;
  const q = readQuestion(msg);
  if (q === null) return null;
  const type = TYPES[q.type] ?? String(q.type);
  asked.push(`${type} ${q.name}`);
  const rdatas: Buffer[] = [];
  if (type === "PTR") {
    for (const [ip, names] of Object.entries(tables.ptr ?? {})) {
      if (reverseName(ip) === q.name) rdatas.push(...names.map(encodeName));
    }
  } else if (type === "A" || type === "AAAA") {
    const table = type === "A" ? tables.a : tables.aaaa;
    for (const addr of table?.[q.name] ?? []) {
      const b = parseIp(addr)!;
      rdatas.push(Buffer.from(type === "A" ? b.subarray(12) : b));
    }
  }
  const header = Buffer.alloc(12);
  header.writeUInt16BE(msg.readUInt16BE(0), 0);
  header.writeUInt16BE(rdatas.length > 0 ? 0x8180 : 0x8183, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rdatas.length, 6);
  const records = rdatas.map((rd) => {
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0);
    rr.writeUInt16BE(q.type, 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(rd.length, 10);
    return Buffer.concat([rr, rd]);
  });
  return Buffer.concat([header, msg.subarray(12, q.end), ...records]);
}

/** Start the server on a free UDP port of 127.0.0.1. */
export function startDnsServer(tables: DnsTables): Promise<DnsServer> {
  const socket = createSocket("udp4");
  const asked: string[] = [];
  socket.on("message", (msg, peer) => {
    const reply = answer(msg, tables, asked);
    if (reply !== null) socket.send(reply, peer.port, peer.address);
  });
  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(0, "127.0.0.1", () => {
      socket.off("error", reject);
      resolve({
        address: `127.0.0.1:${socket.address().port}`,
        asked,
        close: () => new Promise((done) => socket.close(() => done())),
      });
    });
  });
}
