// The page behind every testUrl. The sandbox has no test player; the page says what the
// candidate would see and how to move the attempt with the control API.
import type { FastifyInstance } from 'fastify';
import type { Store } from '../store.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function registerTakeRoutes(app: FastifyInstance, store: Store): void {
  // The page an open link's URL shows (`links get` prints it): anyone with it may take the test.
  app.get('/link/:token', async (request, reply) => {
    const token = (request.params as { token: string }).token;
    const link = store.linkByToken(token);
    if (!link) return reply.code(404).type('text/html').send('<h1>Unknown test link</h1>');
    const test = store.test(link.testId);
    const open = link.invitationType === 'open' && link.testLinkStatus === 'active';
    const shut = link.testLinkStatus === 'active' ? 'for candidates invited by e-mail only' : link.testLinkStatus;
    const message = open
      ? 'This is the sandbox: no questions here. A candidate who opens this link is registered as with ' +
        'assess invite --link.'
      : `This link is ${shut}.`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><title>${esc(test?.testName ?? 'Test')}</title><h1>${esc(test?.testName ?? 'Test')}</h1>` +
          `<p>${esc(link.testLinkName)}</p><p>${esc(message)}</p>`,
      );
  });

  app.get('/take/:token', async (request, reply) => {
    const inv = store.invitationByToken((request.params as { token: string }).token);
    if (!inv) return reply.code(404).type('text/html').send('<h1>Unknown test link</h1>');
    const test = store.test(inv.testId)!;
    const message =
      inv.status === 'Complete' || inv.status === 'Test Left' || inv.status === 'Terminated'
        ? 'You have already appeared for this test. Please contact the test administrator.'
        : inv.status === 'Pending'
          ? `This is the sandbox: no questions here. Move the attempt with POST ` +
            `/_sandbox/invitations/${inv.testInvitationId}/simulate.`
          : `This invitation is ${inv.status}.`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><title>${esc(test.testName)}</title><h1>${esc(test.testName)}</h1>` +
          `<p>Candidate: ${esc(inv.name)} &lt;${esc(inv.email)}&gt; · invitation ` +
          `${inv.testInvitationId} · ${esc(inv.status)}</p><p>${esc(message)}</p>`,
      );
  });
}
