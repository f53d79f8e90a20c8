import { endpointList, fillPath, ORDER_SHEET_COLUMNS, orderEndpoints, type Endpoint } from '@clearplay/contract';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipartForm } from '../test/context.ts';
import { headerOf } from '../modules/orders/files/orders.sheet.ts';
import { openSecret } from '../modules/auth/second-factor.service.ts';
import type { TestUser } from '../test/context.ts';
import { createWorld, IDENTITY_NAMES, totpCode, type Identity, type OrderName, type World } from './world.ts';

/**
 * The authorization matrix (decision 0101): every declared endpoint × every identity,
 * on a world of real records. The expected outcome of each cell is derived from the
 * declaration's access (auth, permission through the seeded roles, records scope) and from who
 * the targeted record belongs to; the data of every answer is searched for shop A's private
 * markers and checked for the reduced view. A route without a target here fails.
 */

/** One request of a cell. */
interface Req {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** A form (the import). */
  form?: { contentType: string; payload: Buffer };
  /** The account a sign-in ticket of the request was given to (the sign-in's second step). */
  ticketOf?: TestUser;
}

/**
 * Whose record a call touches, when it is not the caller's own or shared:
 * - `order`: an order of the world (records 'scoped'), or `new` (a create or import: the order
 *   the body describes, for shop A, inspected by `inspector`);
 * - `owner`: another user's own record (records 'own'): only that user passes, the others get `refusedWith`.
 */
type Rec =
  { order: OrderName } | { newOrder: { inspector: 'inspector1' | 'caller' } } | { owner: 'shopA' | 'inspector1'; refusedWith: number };

interface Target {
  /** Variant label (when a declaration has several targets). */
  label?: string;
  request(w: World, who: Identity): Req | Promise<Req>;
  record?: Rec;
  /**
   * The answer is a list that leaves out what the caller may not see, instead of a 404 (list,
   * export, history): an invisible record is absent.
   */
  list?: true;
  /**
   * A rule of the service the declaration's access names but cannot express (e.g. "only a
   * super admin's own session starts viewing"): who passes it, the status of the others, why.
   */
  narrowed?: { allows: (who: Identity) => boolean; status: number; why: string };
  /**
   * A request built to stop short of its change, where a success would destroy the world (a
   * password, a second factor): the status a caller the access lets through gets, and why.
   */
  probe?: { status: number; why: string };
  /** The cell runs on a new session of the identity (the call ends or changes its session). */
  fresh?: true;
  /** A public route: the status everyone gets (the same for every identity). */
  publicStatus?: number;
  /** What the answer must show beyond its status: what is wrong with it, if anything. */
  verify?: (w: World, who: Identity, req: Req, answer: Answer) => Promise<string[]>;
}

/** Account changes are refused while a super admin views as a shop account (decision 0060, `accountOwner`). */
const accountChange: Target['narrowed'] = {
  allows: (who) => who.view?.role !== 'shop',
  status: 403,
  why: 'a viewed shop account is not the viewer’s to change',
};
/** Staff roles (isAdmin) keep no ledger and have no subscription: the user centre answers 404. */
const notStaffAccount: Target['narrowed'] = {
  allows: (who) => who.view?.role === 'shop' || (who.view === undefined && (who.role === 'shop' || who.role === 'inspector')),
  status: 404,
  why: 'admin and super_admin accounts have no ledger',
};

const none = (): Req => ({});
const csv = (rows: string[][]) => Buffer.from(`${rows.map((r) => r.join(',')).join('\r\n')}\r\n`, 'utf8');
/** The import template's English headers, as a person fills it in. */
const IMPORT_HEADERS = ORDER_SHEET_COLUMNS.map((column) => headerOf('en-US', column));
const randomMac = () =>
  Array.from({ length: 6 }, () =>
    Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join(':');

/** A new order for shop A, inspected by inspector 1, made by the admin: a record a delete may take. */
async function freshOrderId(w: World): Promise<number> {
  const res = await w.ctx.app.inject({
    method: 'POST',
    url: '/api/admin/order/create',
    headers: w.as.admin.headers,
    payload: newOrderBody(w, w.as.inspector1.userId!),
  });
  const body = res.json<{ status: number; msg: string; data: { id: number } }>();
  if (body.status !== 200) throw new Error(`fresh order: ${body.msg}`);
  return body.data.id;
}
const newOrderBody = (w: World, inspectorId: number) => ({
  objWechat: `wxid_new_${w.unique()}`,
  objWechatName: 'New target',
  gameName: 'CS2',
  mac: randomMac(),
  installationTime: '2026-01-02T03:04:05.000Z',
  result: 0,
  objClientName: 'New target shop',
  userId: w.as.shopA.userId!,
  inspectorId,
  amount: 0,
});
/** A record made by the super admin for a call that deletes it. */
async function freshId(w: World, url: string, payload: unknown): Promise<number> {
  const res = await w.ctx.app.inject({ method: 'POST', url, headers: w.as.superAdmin.headers, payload: payload as object });
  const body = res.json<{ status: number; msg: string; data: { id: number } }>();
  if (body.status !== 200) throw new Error(`fresh ${url}: ${body.msg}`);
  return body.data.id;
}
const freshUser = (w: World) =>
  freshId(w, '/api/admin/user/create', {
    username: `mx_gone_${w.unique()}`,
    password: 'Passw0rd!x',
    nickname: 'Gone',
    roleId: w.victim.roleId,
    wechat: 'wx_gone',
    phone: '13800000000',
    defaultPrice: 0,
    defaultPriceCheat: 0,
    defaultPriceSuspect: 0,
    defaultPriceNotPass: 0,
  });
const victimBody = (w: World) => ({
  id: w.victim.id,
  nickname: 'Victim shop',
  roleId: w.victim.roleId,
  wechat: 'wx_victim',
  phone: '13800000000',
  defaultPrice: 0,
  defaultPriceCheat: 0,
  defaultPriceSuspect: 0,
  defaultPriceNotPass: 0,
});

/**
 * The one table of targets, keyed by declaration name: which real record each call is made on.
 * Nothing here says who may call: that is the declaration's.
 */
const TARGETS: Record<string, Target | Target[]> = {
  // ── dictionaries (shared) ──
  'dicts.all': { request: none },
  'dicts.typeList': { request: none },
  'dicts.createType': { request: (w) => ({ body: { code: `mx_t_${w.unique()}`, name: 'New type' } }) },
  'dicts.updateType': { request: (w) => ({ body: { id: w.dictType.id, code: w.dictType.code, name: w.dictType.name } }) },
  'dicts.deleteType': {
    request: async (w) => ({ params: { id: await freshId(w, '/api/admin/dict/type', { code: `mx_d_${w.unique()}`, name: 'Gone' }) } }),
  },
  'dicts.dataList': { request: (w) => ({ params: { type: w.dictType.code } }) },
  'dicts.createData': { request: (w) => ({ body: { typeCode: w.dictType.code, label: 'New', value: `v_${w.unique()}` } }) },
  'dicts.updateData': { request: (w) => ({ body: { ...w.dictData, id: w.dictData.id } }) },
  'dicts.deleteData': {
    request: async (w) => ({
      params: { id: await freshId(w, '/api/admin/dict/data', { typeCode: w.dictType.code, label: 'Gone', value: `g_${w.unique()}` }) },
    }),
  },
  'dicts.typesWithData': { request: none },
  'dicts.dataTree': { request: (w) => ({ params: { type: w.dictType.code } }) },
  // ── roles (shared) ──
  'roles.list': { request: none },
  'roles.all': { request: none },
  'roles.create': { request: (w) => ({ body: { name: `mx_r_${w.unique()}`, description: 'New', permissions: [], isAdmin: false } }) },
  'roles.update': { request: (w) => ({ body: { ...w.role, id: w.role.id, permissions: ['order:view'], isAdmin: false } }) },
  'roles.delete': {
    request: async (w) => ({
      query: {
        id: await freshId(w, '/api/admin/role/create', {
          name: `mx_g_${w.unique()}`,
          description: 'Gone',
          permissions: [],
          isAdmin: false,
        }),
      },
    }),
  },
  // ── operation log, announcements, figures ──
  'logs.list': { request: () => ({ query: { pageSize: 200 } }) },
  'logs.detail': { request: (w) => ({ query: { id: w.logId } }) },
  'announcements.list': { request: none },
  'announcements.detail': { request: (w) => ({ query: { id: w.announcementId } }) },
  'announcements.add': { request: () => ({ body: { title: 'Another notice', type: 'notice', content: '<p>x</p>' } }) },
  'announcements.delete': {
    request: async (w) => ({
      query: { id: await freshId(w, '/api/admin/announcement/add', { title: 'Gone', type: 'notice', content: '<p>gone</p>' }) },
    }),
  },
  'workplace.workplace': { request: none },
  'workplace.orderAnalysis': { request: () => ({ query: { from: '2026-01-01', to: '2026-12-31' } }) },
  'monitor.overview': { request: none },
  'visitStats.overview': { request: none },
  'menu.menu': { request: none },
  // ── ledger: shop A's (records 'any', for the roles that hold the permission) ──
  'ledger.recharge': { request: (w) => ({ body: { userId: w.as.shopA.userId, amount: 1, remark: 'matrix' } }) },
  'ledger.ledger': { request: (w) => ({ query: { userId: w.as.shopA.userId!, pageSize: 200 } }) },
  // ── orders: shop A's private order (inspected by inspector 1), and its public one ──
  'orders.list': [
    { label: 'A private', request: () => ({ query: { pageSize: 200 } }), record: { order: 'aPrivate' }, list: true },
    { label: 'A public', request: () => ({ query: { pageSize: 200 } }), record: { order: 'aPublic' }, list: true },
  ],
  'orders.detail': [
    { label: 'A private', request: (w) => ({ query: { id: w.orders.aPrivate.item.id } }), record: { order: 'aPrivate' } },
    { label: 'A public', request: (w) => ({ query: { id: w.orders.aPublic.item.id } }), record: { order: 'aPublic' } },
  ],
  'orders.profile': [
    { label: 'A private', request: (w) => ({ query: { id: w.orders.aPrivate.item.id } }), record: { order: 'aPrivate' } },
    { label: 'A public', request: (w) => ({ query: { id: w.orders.aPublic.item.id } }), record: { order: 'aPublic' } },
  ],
  'orders.price': { request: (w) => ({ query: { userId: w.as.shopA.userId! } }) },
  'orders.create': {
    request: (w) => ({ body: newOrderBody(w, w.as.inspector1.userId!) }),
    record: { newOrder: { inspector: 'inspector1' } },
  },
  'orders.update': {
    // The order as it is (its editable fields): an edit that changes nothing.
    request: (w) => {
      const { id, objWechat, objWechatName, gameName, mac, installationTime, result, objClientName, description, ifPublic } =
        w.orders.aPrivate.item;
      const { certImages, proofImages, personCertImages } = w.orders.aPrivate.item;
      const bare = (list: string) => list.replace(/\?e=\d+&token=[^,]*/g, '');
      return {
        body: {
          id,
          objWechat,
          objWechatName,
          gameName,
          mac,
          installationTime,
          result,
          objClientName,
          description,
          ifPublic,
          userId: w.orders.aPrivate.clientId,
          inspectorId: w.orders.aPrivate.inspectorId,
          amount: w.orders.aPrivate.item.amount!,
          certImages: bare(certImages),
          proofImages: bare(proofImages),
          personCertImages: bare(personCertImages),
        },
      };
    },
    record: { order: 'aPrivate' },
  },
  'orders.delete': {
    request: async (w) => ({ body: { ids: [await freshOrderId(w)] } }),
    record: { newOrder: { inspector: 'inspector1' } },
  },
  'orders.history': [
    {
      label: 'A private chat ID',
      request: (w) => ({ query: { objWechat: w.orders.aPrivate.item.objWechat } }),
      record: { order: 'aPrivate' },
      list: true,
    },
    { label: 'A private MAC', request: (w) => ({ query: { mac: w.orders.aPrivate.item.mac } }), record: { order: 'aPrivate' }, list: true },
    {
      label: 'A public chat ID',
      request: (w) => ({ query: { objWechat: w.orders.aPublic.item.objWechat } }),
      record: { order: 'aPublic' },
      list: true,
    },
  ],
  'orders.importTemplate': { request: none },
  'orders.import': {
    // One row for shop A, the inspector left empty: the importer inspects it.
    request: async (w) => ({
      query: { keepValid: false },
      form: await multipartForm([
        [
          'file',
          {
            body: csv([
              IMPORT_HEADERS,
              [
                `wxid_imp_${w.unique()}`,
                'Imported',
                'CS2',
                randomMac(),
                '2026-01-02 03:04',
                '0',
                w.as.shopA.account!.username,
                'x',
                '',
                '0',
                '',
                '',
                '',
              ],
            ]),
            name: 'orders.csv',
          },
        ],
      ]),
    }),
    record: { newOrder: { inspector: 'caller' } },
  },
  'orders.export': [
    { label: 'A private', request: none, record: { order: 'aPrivate' }, list: true },
    { label: 'A public', request: none, record: { order: 'aPublic' }, list: true },
  ],
  'orders.download': [
    { label: 'A private', request: (w) => ({ query: { id: w.orders.aPrivate.item.id } }), record: { order: 'aPrivate' } },
    { label: 'A public', request: (w) => ({ query: { id: w.orders.aPublic.item.id } }), record: { order: 'aPublic' } },
  ],
  // ── switching roles: a new session per call (starting or ending a view changes the session) ──
  'viewAs.start': {
    request: () => ({ body: { role: 'inspector' } }),
    fresh: true,
    narrowed: {
      allows: (who) => who.role === 'super_admin' && who.view === undefined,
      status: 403,
      why: 'only a super admin’s own session starts viewing, and not while viewing',
    },
  },
  'viewAs.end': { request: none, fresh: true },
  // ── public calls: everyone gets the same answer ──
  'health.health': { request: none, publicStatus: 200 },
  'health.ready': { request: none, publicStatus: 200 },
  'public.lookup': [
    { label: 'A private chat ID', request: (w) => ({ query: { chatId: w.orders.aPrivate.item.objWechat } }), publicStatus: 200 },
    { label: 'A public chat ID', request: (w) => ({ query: { chatId: w.orders.aPublic.item.objWechat } }), publicStatus: 200 },
  ],
  'public.verify': [
    { label: 'A private code', request: (w) => ({ params: { code: w.orders.aPrivate.item.code } }), publicStatus: 404 },
    { label: 'A public code', request: (w) => ({ params: { code: w.orders.aPublic.item.code } }), publicStatus: 200 },
  ],
  'public.links': { request: none, publicStatus: 200 },
  'public.prices': { request: none, publicStatus: 200 },
  'public.figures': { request: none, publicStatus: 200 },
  'auth.login': { request: (w) => ({ body: { username: w.victim.username, password: w.victim.password } }), publicStatus: 200 },
  // The sign-in's second step: the ticket alone decides whose sign-in it is (a fresh one per cell,
  // a ticket opens one session); the caller's own session neither helps nor changes it.
  'loginSteps.enrol': [
    { label: 'no such ticket', request: () => ({ body: { ticket: 'no-such-ticket' } }), publicStatus: 400 },
    {
      label: 'a valid ticket of step enrol',
      request: async (w) => {
        const { user, ticket } = await w.enrolTicket();
        return { body: { ticket }, ticketOf: user };
      },
      publicStatus: 200,
      verify: enrolledForTicket,
    },
  ],
  'loginSteps.secondFactor': [
    { label: 'no such ticket', request: () => ({ body: { ticket: 'no-such-ticket', code: '000000' } }), publicStatus: 400 },
    {
      label: 'a valid ticket of step enrol, the new app’s code',
      request: async (w) => {
        const { user, ticket } = await w.enrolTicket();
        const enrolment = await w.ctx.app.inject({ method: 'POST', url: '/api/admin/user/login/enrol', payload: { ticket } });
        const { secret } = enrolment.json<{ data: { secret: string } }>().data;
        return { body: { ticket, code: totpCode(secret) }, ticketOf: user };
      },
      publicStatus: 200,
      verify: sessionOfTicket,
    },
    {
      label: 'a valid ticket of step required, the factor’s code',
      request: async (w) => {
        const { user, ticket, secret } = await w.requiredTicket();
        // The current step was used by the set-up: the next one (within the accepted window).
        return { body: { ticket, code: totpCode(secret, 30_000) }, ticketOf: user };
      },
      publicStatus: 200,
      verify: sessionOfTicket,
    },
  ],
  'tracking.pageView': { request: () => ({ body: { path: '/matrix' } }) },
  'tracking.event': { request: () => ({ body: { event: 'matrix.cell' } }) },
  // ── the caller's own: messages (shop A's message for the others), session, uploads ──
  'messages.list': { request: () => ({ query: { pageSize: 100 } }) },
  'messages.read': { request: (w) => ({ body: { ids: [w.aMessageId] } }), record: { owner: 'shopA', refusedWith: 404 } },
  'messages.unread': { request: none },
  'session.logout': { request: none, fresh: true },
  'session.info': { request: none },
  'session.check': { request: none },
  'uploads.token': [
    { label: 'new key', request: () => ({ query: { purpose: 'cert' } }) },
    {
      // An evidence key is sealed to the user it was issued to (decision 0113): no one else may resume it.
      label: 'inspector 1’s evidence key',
      request: (w) => ({ query: { purpose: 'cert', key: w.aPrivateKeys.find((k) => k.startsWith('evidence/cert/')) ?? 'missing' } }),
      record: { owner: 'inspector1', refusedWith: 400 },
    },
    {
      // An avatar key names its owner.
      label: 'inspector 1’s avatar key',
      request: (w) => ({ query: { purpose: 'avatar', key: w.inspector1AvatarKey } }),
      record: { owner: 'inspector1', refusedWith: 400 },
    },
  ],
  // ── user administration (records 'any'): a victim shop, or a fresh user for a delete ──
  'users.list': { request: () => ({ query: { pageSize: 200 } }) },
  'users.search': { request: () => ({ query: { keyword: 'mx_' } }) },
  'users.create': {
    request: (w) => ({
      body: {
        ...victimBody(w),
        id: undefined,
        username: `mx_new_${w.unique()}`,
        password: 'Passw0rd!x',
      },
    }),
  },
  'users.update': { request: (w) => ({ body: victimBody(w) }) },
  'users.resetPassword': { request: (w) => ({ body: { id: w.victim.id, newPassword: w.victim.password } }) },
  'users.resetSecondFactor': {
    request: (w) => ({ body: { id: w.victim.id } }),
    probe: {
      status: 400,
      why: 'the victim has no second factor (giving it one takes an authenticator): the reset is refused after the gate',
    },
  },
  'users.setStatus': { request: (w) => ({ body: { id: w.victim.id, status: 1 } }) },
  'users.delete': { request: async (w) => ({ query: { id: await freshUser(w) } }) },
  'users.setSubscription': { request: (w) => ({ body: { userId: w.victim.id, type: 'monthly' } }) },
  'users.cancelSubscription': { request: (w) => ({ query: { userId: w.victim.id } }) },
  'users.subscriptions': { request: (w) => ({ query: { userId: w.as.shopA.userId! } }) },
  // ── the user centre (records 'own') ──
  'account.profile': { request: none },
  'account.updateProfile': { request: (_w, who) => ({ body: { nickname: who.nickname } }), narrowed: accountChange },
  'account.avatar': { request: () => ({ body: { avatar: '' } }), narrowed: accountChange },
  'account.password': {
    request: () => ({ body: { oldPassword: 'not-the-password', newPassword: 'Another1pass' } }),
    narrowed: accountChange,
    probe: { status: 400, why: 'a changed password ends the identity’s other sessions and sign-ins: a wrong current password stops short' },
  },
  'account.logins': { request: none },
  'account.sessions': { request: none },
  'account.endOtherSessions': { request: none, narrowed: accountChange },
  'account.ledger': { request: none, narrowed: notStaffAccount },
  'account.subscriptions': { request: none },
  'account.secondFactor': { request: none },
  'account.secondFactorEnrol': { request: none, narrowed: accountChange },
  'account.secondFactorConfirm': {
    request: () => ({ body: { code: '000000' } }),
    narrowed: accountChange,
    probe: { status: 400, why: 'a confirmed second factor would stop the identity’s password-only sign-in: a wrong code stops short' },
  },
  'account.secondFactorDisable': {
    request: () => ({ body: { code: '000000' } }),
    narrowed: accountChange,
    probe: { status: 400, why: 'there is no factor to disable; a wrong code is refused after the gate' },
  },
};

/** The enrol step's answer is a secret for the ticket's account, set up as its pending one; the caller's account has none. */
async function enrolledForTicket(w: World, who: Identity, req: Req, answer: Answer): Promise<string[]> {
  const user = req.ticketOf!;
  const data = answer.json as { secret?: string; otpauthUrl?: string } | undefined;
  if (answer.status !== 200 || typeof data?.secret !== 'string') return ['no secret in the answer'];
  const wrong: string[] = [];
  const pendingOf = async (id: number) =>
    (await w.ctx.db.selectFrom('users').select('totpPendingSecret').where('id', '=', id).executeTakeFirstOrThrow()).totpPendingSecret;
  if (openSecret(w.ctx.config, user.id, await pendingOf(user.id)) !== data.secret)
    wrong.push(`the secret is not ${user.username}’s pending one`);
  if (!decodeURIComponent(data.otpauthUrl ?? '').includes(user.username))
    wrong.push(`the authenticator link does not name ${user.username}`);
  if (who.account !== null && (await pendingOf(who.account.id)) !== null)
    wrong.push(`the caller ${who.account.username} got a pending secret`);
  return wrong;
}

/** The second step's answer is a session of the ticket's account, not the caller's; the caller's own session is unchanged. */
async function sessionOfTicket(w: World, who: Identity, req: Req, answer: Answer): Promise<string[]> {
  const user = req.ticketOf!;
  const data = answer.json as { token?: string } | undefined;
  if (answer.status !== 200 || typeof data?.token !== 'string') return ['no session in the answer'];
  const wrong: string[] = [];
  const infoAs = async (headers: Record<string, string>) =>
    (await w.ctx.app.inject({ method: 'GET', url: '/api/admin/user/info', headers })).json<{
      status: number;
      data: { id: number; username: string } | null;
    }>();
  const opened = await infoAs({ authorization: `Bearer ${data.token}` });
  if (opened.status !== 200 || opened.data?.id !== user.id || opened.data.username !== user.username)
    wrong.push(`the session opened is ${opened.data?.username ?? opened.status}’s, not ${user.username}’s`);
  if (who.account !== null) {
    const own = await infoAs(who.headers);
    // The user the caller acts as (the viewed shop while viewing as one).
    if (own.status !== 200 || own.data?.id !== who.userId)
      wrong.push(`the caller’s own session now answers ${own.data?.username ?? own.status}`);
  }
  return wrong;
}

// ── expected outcome, derived from the declaration ──

type Outcome =
  | { kind: 'refused'; status: number; why: string }
  | { kind: 'pass'; status: number }
  | { kind: 'full' }
  | { kind: 'reduced' }
  | { kind: 'absent' }
  | { kind: 'public'; status: number };

const holds = (who: Identity, permission: Endpoint['access']['permission']) => {
  if (permission === undefined) return true;
  const anyOf: readonly string[] = typeof permission === 'string' ? [permission] : permission;
  return who.permissions.some((held) => anyOf.includes(held));
};

function expectedOutcome(w: World, endpoint: Endpoint, target: Target, who: Identity): Outcome {
  const { auth, permission, records } = endpoint.access;
  if (auth === 'public') return { kind: 'public', status: target.publicStatus ?? 200 };
  if (who.role === 'anonymous')
    return auth === 'optional' ? { kind: 'pass', status: 200 } : { kind: 'refused', status: 401, why: 'no session' };
  if (!holds(who, permission)) return { kind: 'refused', status: 403, why: `role ${who.role} lacks ${String(permission)}` };
  if (target.narrowed !== undefined && !target.narrowed.allows(who))
    return { kind: 'refused', status: target.narrowed.status, why: target.narrowed.why };
  const pass: Outcome = { kind: 'pass', status: target.probe?.status ?? 200 };
  const rec = target.record;
  if (records === 'shared' || records === 'any' || rec === undefined) return pass;
  if ('owner' in rec) {
    const ownerId = w.as[rec.owner].userId;
    return ownerId === who.userId ? pass : { kind: 'refused', status: rec.refusedWith, why: `another user's ${records} record` };
  }
  // 'scoped': staff see every order, a shop its own in full and other shops' public ones reduced;
  // without order:update:any only the order's own inspector writes it (decision 0022).
  const order =
    'order' in rec
      ? w.orders[rec.order]
      : {
          clientId: w.as.shopA.userId!,
          inspectorId: rec.newOrder.inspector === 'caller' ? who.userId! : w.as.inspector1.userId!,
          public: false,
        };
  const seesAll = holds(who, 'order:view:all');
  const mine = order.clientId === who.userId;
  if (endpoint.method === 'GET') {
    if (seesAll || mine) return { kind: 'full' };
    if (order.public) return { kind: 'reduced' };
    return target.list === true
      ? { kind: 'absent' }
      : { kind: 'refused', status: 404, why: 'another shop’s private order does not exist for it' };
  }
  if (!seesAll && !mine && !order.public) return { kind: 'refused', status: 404, why: 'another shop’s private order' };
  if (!holds(who, 'order:update:any') && order.inspectorId !== who.userId)
    // A new order naming another inspector is a bad field of its body (400, field inspectorId);
    // an existing order of another inspector is not the caller's to change (403).
    return { kind: 'refused', status: 'order' in rec ? 403 : 400, why: 'an inspector writes only the orders they inspect' };
  return pass;
}

// ── calling and reading an answer ──

interface Answer {
  status: number;
  msg: string;
  /** Every text of the answer: the JSON body, or each entry (name and content) of a ZIP or xlsx. */
  text: string;
  json: unknown;
}

async function send(w: World, endpoint: Endpoint, req: Req, headers: Record<string, string>, remoteAddress: string): Promise<Answer> {
  const query =
    req.query === undefined
      ? ''
      : `?${new URLSearchParams(Object.entries(req.query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
  const url = `/api${fillPath(endpoint.path, req.params)}${query}`;
  const res = await w.ctx.app.inject({
    method: endpoint.method,
    url,
    remoteAddress,
    headers: { ...headers, 'accept-language': 'en-US', ...(req.form === undefined ? {} : { 'content-type': req.form.contentType }) },
    ...(req.form !== undefined ? { payload: req.form.payload } : req.body === undefined ? {} : { payload: req.body as object }),
  });
  const type = String(res.headers['content-type'] ?? '');
  if (type.startsWith('application/json')) {
    const body = res.json<{ status: number; msg: string; data: unknown }>();
    return { status: body.status, msg: body.msg, text: res.body, json: body.data };
  }
  if (type.startsWith('application/zip') || type.includes('spreadsheetml')) {
    const zip = await JSZip.loadAsync(res.rawPayload);
    const parts: string[] = [];
    for (const [name, file] of Object.entries(zip.files)) parts.push(name, file.dir ? '' : await file.async('string'));
    return { status: res.statusCode, msg: type, text: parts.join('\n'), json: undefined };
  }
  return { status: res.statusCode, msg: type, text: res.body, json: undefined };
}

/** Every object of a JSON value that is an order in the reduced view. */
function reducedOrders(value: unknown, found: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const v of value) reducedOrders(v, found);
  else if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (o.view === 'public') found.push(o);
    for (const v of Object.values(o)) reducedOrders(v, found);
  }
  return found;
}

/** Every string a request carries. */
const requestStrings = (req: Req): string[] =>
  [req.params, req.query, req.body]
    .flatMap((part) => (part === undefined ? [] : (JSON.stringify(part).match(/"[^"]*"/g) ?? [])))
    .map((s) => s.slice(1, -1));
/** A marker as compared with what was sent: case and MAC separators aside. */
const normal = (s: string) => s.toLowerCase().replace(/[:-]/g, '');

/** An evidence link handed out without its signature. */
const UNSIGNED_EVIDENCE = /\/upload\/files\/evidence\/[A-Za-z0-9/_-]+(?!\?e=|[A-Za-z0-9/_-])/g;

// ── the matrix ──

let w: World;
let cells = 0;
/** Cells per expected outcome (refused 401/403/404…, pass, full, reduced, absent, public). */
const tally = new Map<string, number>();
const leaks: string[] = [];
const started = Date.now();

beforeAll(async () => {
  w = await createWorld();
}, 120_000);
afterAll(async () => {
  console.log(
    `authorization matrix: ${cells} cells (${endpointList().length} declarations × ${IDENTITY_NAMES.length} identities, with variants; ` +
      `${[...tally].map(([kind, n]) => `${kind} ${n}`).join(', ')}), ${leaks.length} leaks, ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  await w?.ctx.destroy();
});

/** The identities that may not see shop A's private orders (a viewed shop B acts as B). */
const outsiders = new Set(['anonymous', 'shopB', 'superAsShopB']);

describe('the matrix covers every route', () => {
  it('every registered route has a declaration, every declaration a target, every target a declaration', () => {
    const declared = endpointList();
    const known = new Set(declared.map(({ endpoint }) => endpoint));
    expect(
      w.ctx.app.apiRoutes.filter((r) => r.endpoint === undefined || !known.has(r.endpoint)).map((r) => `${r.method} ${r.url}`),
    ).toEqual([]);
    expect(declared.map(({ name }) => name).filter((name) => TARGETS[name] === undefined)).toEqual([]);
    expect(Object.keys(TARGETS).filter((name) => !declared.some((d) => d.name === name))).toEqual([]);
  });
});

describe('every route × every identity', () => {
  const rows = endpointList().flatMap(({ name, endpoint }) =>
    [TARGETS[name] ?? []]
      .flat()
      .map((target) => ({ name: target.label === undefined ? name : `${name} (${target.label})`, endpoint, target })),
  );
  it.each(rows)('$name', async ({ name, endpoint, target }) => {
    const wrong: string[] = [];
    let publicStatus: number | undefined;
    for (const identity of IDENTITY_NAMES) {
      const who = w.as[identity];
      const outcome = expectedOutcome(w, endpoint, target, who);
      const headers = target.fresh === true ? await w.freshSession(who) : who.headers;
      const req = await target.request(w, who);
      // Each identity is its own client (the public calls' rate limits count per client).
      const answer = await send(w, endpoint, req, headers, `10.25.0.${IDENTITY_NAMES.indexOf(identity) + 1}`);
      cells += 1;
      const kind = outcome.kind === 'refused' ? `refused ${outcome.status}` : outcome.kind;
      tally.set(kind, (tally.get(kind) ?? 0) + 1);
      const cell = `${identity} → ${name}: ${answer.status} ${answer.msg.slice(0, 120)}`;
      const text = answer.text.toLowerCase();
      // What the caller sent may come back (a history names the chat ID it was asked about).
      const sent = new Set(requestStrings(req).map(normal));
      const holdsMarker = (m: string) => text.includes(m.toLowerCase()) && !sent.has(normal(m));

      // The status, and what the answer must (not) hold of the targeted order.
      const order = target.record !== undefined && 'order' in target.record ? w.orders[target.record.order] : undefined;
      switch (outcome.kind) {
        case 'public':
          publicStatus ??= answer.status;
          if (answer.status !== outcome.status || answer.status !== publicStatus)
            wrong.push(`${cell}; expected ${outcome.status} for everyone`);
          break;
        case 'refused':
          if (answer.status !== outcome.status) wrong.push(`${cell}; expected ${outcome.status} (${outcome.why})`);
          break;
        case 'pass':
          if (answer.status !== outcome.status) wrong.push(`${cell}; expected ${outcome.status}`);
          break;
        case 'full':
          if (answer.status !== 200 || !order!.markers.some(holdsMarker)) wrong.push(`${cell}; expected the order in full`);
          break;
        case 'reduced':
        case 'absent': {
          const present = order!.markers.some(holdsMarker);
          if (answer.status !== 200 || present !== (outcome.kind === 'reduced'))
            wrong.push(`${cell}; expected the order ${outcome.kind === 'reduced' ? 'reduced' : 'left out'}`);
        }
      }

      // The data: nobody outside shop A and the staff ever reads A's private data or what the
      // reduced view leaves out; a reduced order carries no amount, client or inspector; no
      // evidence link is handed out unsigned.
      const found: string[] = [];
      if (outsiders.has(identity)) {
        found.push(...w.aPrivateMarkers.filter(holdsMarker).map((m) => `A's private "${m}"`));
        found.push(...w.reducedMarkers.filter(holdsMarker).map((m) => `reduced-view "${m}"`));
      }
      for (const o of reducedOrders(answer.json))
        for (const field of ['amount', 'userId', 'userName', 'inspectorId', 'inspectorName'])
          if (o[field] !== null && o[field] !== undefined && o[field] !== '')
            found.push(`reduced order ${String(o.code)} carries ${field}`);
      const unsigned = answer.text.match(UNSIGNED_EVIDENCE);
      if (unsigned !== null) found.push(`unsigned evidence link ${unsigned[0]}`);
      for (const leak of found) leaks.push(`${cell}: ${leak}`);
      if (target.verify !== undefined) for (const fault of await target.verify(w, who, req, answer)) wrong.push(`${cell}; ${fault}`);
    }
    expect(wrong).toEqual([]);
  });

  it('leaks no private data in any answer', () => {
    expect(leaks).toEqual([]);
  });
});

describe('signed evidence links', () => {
  it('serve shop A’s private evidence through the links handed to those who may see it, and never bare', async () => {
    const id = w.orders.aPrivate.item.id;
    const detail = await send(w, orderEndpoints.detail, { query: { id } }, w.as.shopA.headers, '10.25.1.1');
    const links = [...answerLinks(detail.json)];
    expect(links).toHaveLength(w.aPrivateKeys.length);
    for (const link of links) {
      const { pathname, search } = new URL(link, 'http://localhost');
      expect(search).toMatch(/^\?e=\d+&token=/);
      for (const headers of [{}, w.as.shopA.headers]) {
        const signed = await w.ctx.app.inject({ method: 'GET', url: `${pathname}${search}`, headers });
        expect(signed.statusCode, link).toBe(200);
        const bare = await w.ctx.app.inject({ method: 'GET', url: pathname, headers });
        expect(bare.statusCode, pathname).toBe(403);
      }
    }
  });
});

/** The image links of an order answer. */
function answerLinks(item: unknown): string[] {
  const order = item as Record<'certImages' | 'proofImages' | 'personCertImages', string>;
  return [order.certImages, order.proofImages, order.personCertImages].flatMap((list) => (list === '' ? [] : list.split(',')));
}
