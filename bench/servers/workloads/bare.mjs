// bench/servers/workloads/bare — the ceiling for the workloads part: plain node:http reading each request body
// and answering the precomputed bytes of its workload (bench/workloads/requests.mjs), looked up by the body:
// no parsing, validation or dispatch. Prints `{"url": …}`; exits when stdin closes.
import { createServer } from 'node:http';
import { listenAndAnnounce } from '../stop.mjs';
import { WORKLOADS, answerOf, modernBody } from '../../workloads/requests.mjs';

const answers = new Map(WORKLOADS.map((w) => [modernBody(w), Buffer.from(JSON.stringify(answerOf(w)))]));

listenAndAnnounce(
  createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = answers.get(Buffer.concat(chunks).toString());
      if (!body) return void res.writeHead(400).end();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  }),
);
