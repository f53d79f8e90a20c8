/**
 * The authorization matrix's world (decision 0101): the identities that call every route, and
 * real records of every route family for them to call it on, made through the real endpoints
 * (uploads through the embedded upload host, orders recorded by the inspectors, recharges by
 * staff), so that messages, ledger entries, counters, operation-log rows and signed evidence
 * links are the product's own.
 *
 * Shop A's private order carries marker strings found nowhere else (chat ID, target name, MAC,
 * target's shop, description, verification code, evidence keys, a recharge remark): a leak of
 * A's private data is any of them in an answer to someone who may not see it. A's public order
 * is shown to other shops reduced; its client (shop A), its inspector (inspector 2, who records
 * nothing for shop B) and its amount (a price only shop A has) are markers of the reduced view.
 */
import { formatMoney, SEEDED_ROLE_PERMISSIONS, type OrderItem, type Permission } from '@clearplay/contract';
import { call, createTestContext, createUser, loginWith, uploadImage, type TestContext, type TestUser } from '../test/context.ts';
import { pngBytes } from '../modules/uploads/host/test-support.ts';
import { Secret, TOTP } from 'otpauth';

export type RoleName = 'anonymous' | 'shop' | 'inspector' | 'admin' | 'super_admin';

export const IDENTITY_NAMES = [
  'anonymous',
  'shopA',
  'shopB',
  'inspector1',
  'inspector2',
  'admin',
  'superAdmin',
  'superAsShopB',
  'superAsInspector',
  'superAsAdmin',
] as const;
export type IdentityName = (typeof IDENTITY_NAMES)[number];

export interface Identity {
  name: IdentityName;
  /** The role the session acts as (the viewed role while viewing). */
  role: RoleName;
  /** The user whose records the session acts on (the viewed shop while viewing as one); null: anonymous. */
  userId: number | null;
  /** The user who signed in (the super admin while viewing). */
  account: TestUser | null;
  /** What the session views the app as, if anything. */
  view?: { role: 'shop' | 'inspector' | 'admin'; userId?: number };
  /** Permissions of the session: the seeded role's (a view narrows a super admin's to the viewed role's). */
  permissions: readonly Permission[];
  headers: Record<string, string>;
  /** The user's nickname (an own-profile save sends it back unchanged). */
  nickname: string;
}

/** An order of the world and who it concerns. */
export interface WorldOrder {
  item: OrderItem;
  clientId: number;
  inspectorId: number;
  public: boolean;
  /** Strings of this order found nowhere else in the world. */
  markers: string[];
}

export const ORDER_NAMES = ['aPrivate', 'aPublic', 'bPrivate', 'bPublic'] as const;
export type OrderName = (typeof ORDER_NAMES)[number];

export interface World {
  ctx: TestContext;
  as: Record<IdentityName, Identity>;
  orders: Record<OrderName, WorldOrder>;
  /** Every string of shop A's private data: none may reach anyone who may not see A's private orders. */
  aPrivateMarkers: string[];
  /** What the reduced view of A's public order leaves out (client, inspector, amount). */
  reducedMarkers: string[];
  /** The evidence keys of A's private order (uploaded by inspector 1). */
  aPrivateKeys: string[];
  /** An avatar key issued to inspector 1 (an avatar key names its owner). */
  inspector1AvatarKey: string;
  /** A message in shop A's box. */
  aMessageId: number;
  /** A shop whose account user administration may change (nickname, password, status, subscription). */
  victim: TestUser;
  announcementId: number;
  logId: number;
  dictType: { id: number; code: string; name: string };
  dictData: { id: number; typeCode: string; label: string; value: string };
  role: { id: number; name: string; description: string };
  /** A new session of the identity (its own sign-in, and its view started again): for calls that end or change the session. */
  freshSession(who: Identity): Promise<Record<string, string>>;
  /** A unique suffix for fresh records. */
  unique(): string;
  /**
   * A new admin who must set up a second factor (the world runs with TOTP_REQUIRED=admins; its
   * own identities are exempt), signed in with the password: the sign-in ticket of step enrol.
   */
  enrolTicket(): Promise<{ user: TestUser; ticket: string }>;
  /**
   * A new admin whose second factor was set up at sign-in, signed in with the password again:
   * the ticket of step required, and the secret its codes come from (the current step is used:
   * the next code is `totpCode(secret, 30_000)`).
   */
  requiredTicket(): Promise<{ user: TestUser; ticket: string; secret: string }>;
}

/** The code an authenticator app set up with `secret` shows, `offsetMs` from now. */
export const totpCode = (secret: string, offsetMs = 0): string =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + offsetMs });

const A_PRICE = 432187; // ¥4321.87, the price no other shop has: the reduced view's amount marker
const B_PRICE = 1250;

async function signIn(ctx: TestContext, user: TestUser, view?: Identity['view']): Promise<Record<string, string>> {
  const { headers } = await loginWith(ctx, user.username, user.password);
  if (view !== undefined) {
    const started = await call(ctx, 'POST', '/api/admin/account/view-as', { as: { headers }, payload: view });
    if (started.status !== 200) throw new Error(`view as ${view.role}: ${started.msg}`);
  }
  return headers;
}

export async function createWorld(): Promise<World> {
  // Admins must have a second factor (the default), so that a new admin's sign-in gives a ticket
  // of step enrol; the identities below are exempt (they sign in with the password, as before).
  const ctx = await createTestContext({ ownDataDir: true, env: { TOTP_REQUIRED: 'admins' } });
  const setUser = (id: number, values: Record<string, unknown>) => ctx.db.updateTable('users').set(values).where('id', '=', id).execute();

  const users = {
    shopA: await createUser(ctx, 'shop', { username: 'mx_shop_alpha' }),
    shopB: await createUser(ctx, 'shop', { username: 'mx_shop_bravo' }),
    inspector1: await createUser(ctx, 'inspector', { username: 'mx_insp_one' }),
    inspector2: await createUser(ctx, 'inspector', { username: 'mx_insp_zwei' }),
    admin: await createUser(ctx, 'admin', { username: 'mx_admin' }),
    superAdmin: await createUser(ctx, 'super_admin', { username: 'mx_super' }),
    superAsShopB: await createUser(ctx, 'super_admin', { username: 'mx_super_as_shop' }),
    superAsInspector: await createUser(ctx, 'super_admin', { username: 'mx_super_as_insp' }),
    superAsAdmin: await createUser(ctx, 'super_admin', { username: 'mx_super_as_admin' }),
  };
  const victim = await createUser(ctx, 'shop', { username: 'mx_shop_victim' });
  const nicknames: Record<keyof typeof users, string> = {
    shopA: 'Alpha Arcade Nick',
    shopB: 'Bravo Bar Nick',
    inspector1: 'Inspector Uno',
    inspector2: 'Inspector Zwei Nick',
    admin: 'Office Admin',
    superAdmin: 'Owner',
    superAsShopB: 'Owner as shop',
    superAsInspector: 'Owner as inspector',
    superAsAdmin: 'Owner as admin',
  };
  for (const [name, user] of Object.entries(users))
    await setUser(user.id, { nickname: nicknames[name as keyof typeof users], totpExempt: 1 });
  await setUser(users.shopA.id, { defaultPriceCheat: A_PRICE, wechat: 'wx_alpha_contact' });
  await setUser(users.shopB.id, { defaultPriceCheat: B_PRICE, wechat: 'wx_bravo_contact' });

  const views: Partial<Record<IdentityName, Identity['view']>> = {
    superAsShopB: { role: 'shop', userId: users.shopB.id },
    superAsInspector: { role: 'inspector' },
    superAsAdmin: { role: 'admin' },
  };
  const roleOf = (name: IdentityName): Exclude<RoleName, 'anonymous'> => {
    const view = views[name];
    if (view !== undefined) return view.role;
    if (name.startsWith('shop')) return 'shop';
    if (name.startsWith('inspector')) return 'inspector';
    return name === 'admin' ? 'admin' : 'super_admin';
  };

  const anonymous: Identity = {
    name: 'anonymous',
    role: 'anonymous',
    userId: null,
    account: null,
    permissions: [],
    headers: {},
    nickname: '',
  };
  const as = { anonymous } as Record<IdentityName, Identity>;
  for (const name of Object.keys(users) as (keyof typeof users)[]) {
    const account = users[name];
    const view = views[name];
    const role = roleOf(name);
    as[name] = {
      name,
      role,
      userId: view?.userId ?? account.id,
      account,
      ...(view === undefined ? {} : { view }),
      permissions: SEEDED_ROLE_PERMISSIONS[role],
      headers: await signIn(ctx, account, view),
      nickname: nicknames[name],
    };
  }

  // ── orders, recorded by their inspectors with evidence uploaded through the embedded host ──
  const upload = async (inspector: Identity, seed: number) => {
    const images = [];
    for (const [i, purpose] of (['cert', 'proof', 'env'] as const).entries())
      images.push(await uploadImage(ctx, inspector, purpose, pngBytes(400 + i, seed + i)));
    return images;
  };
  const record = async (
    name: OrderName,
    inspector: Identity,
    client: TestUser,
    fields: { objWechat: string; objWechatName: string; mac: string; objClientName: string; description: string; ifPublic: 0 | 1 },
    amount: number,
    seed: number,
  ): Promise<WorldOrder> => {
    const images = await upload(inspector, seed);
    const created = await call<OrderItem>(ctx, 'POST', '/api/admin/order/create', {
      as: inspector,
      payload: {
        ...fields,
        gameName: 'CS2',
        installationTime: '2026-01-02T03:04:05.000Z',
        result: 1,
        userId: client.id,
        inspectorId: inspector.userId,
        amount,
        certImages: images[0]!.url,
        proofImages: images[1]!.url,
        personCertImages: images[2]!.url,
      },
    });
    if (created.status !== 200) throw new Error(`order ${name}: ${created.msg}`);
    const keys = images.map((image) => image.key);
    return {
      item: created.data,
      clientId: client.id,
      inspectorId: inspector.userId!,
      public: fields.ifPublic === 1,
      markers: [
        fields.objWechat,
        fields.objWechatName,
        fields.objClientName,
        fields.description,
        created.data.code,
        ...macForms(fields.mac),
        ...keys,
      ],
    };
  };
  const orders: Record<OrderName, WorldOrder> = {
    aPrivate: await record(
      'aPrivate',
      as.inspector1,
      users.shopA,
      {
        objWechat: 'wxid_alphaSecret71',
        objWechatName: 'AlphaHiddenTargetName',
        mac: 'a7:1c:e5:3b:9d:42',
        objClientName: 'AlphaHiddenClientShop',
        description: 'AlphaHiddenRemark',
        ifPublic: 0,
      },
      A_PRICE,
      10,
    ),
    aPublic: await record(
      'aPublic',
      as.inspector2,
      users.shopA,
      {
        objWechat: 'wxid_alphaOpen52',
        objWechatName: 'AlphaOpenTarget',
        mac: '3e:55:0a:61:c2:08',
        objClientName: 'AlphaOpenClientShop',
        description: 'AlphaOpenRemark',
        ifPublic: 1,
      },
      A_PRICE,
      20,
    ),
    bPrivate: await record(
      'bPrivate',
      as.inspector1,
      users.shopB,
      {
        objWechat: 'wxid_bravoOwn33',
        objWechatName: 'BravoTarget',
        mac: '5b:66:77:88:99:0a',
        objClientName: 'BravoClientShop',
        description: 'BravoRemark',
        ifPublic: 0,
      },
      B_PRICE,
      30,
    ),
    bPublic: await record(
      'bPublic',
      as.inspector1,
      users.shopB,
      {
        objWechat: 'wxid_bravoOpen44',
        objWechatName: 'BravoOpenTarget',
        mac: '5b:66:77:88:99:0b',
        objClientName: 'BravoOpenClientShop',
        description: 'BravoOpenRemark',
        ifPublic: 1,
      },
      B_PRICE,
      40,
    ),
  };
  // An earlier record of A's private target, under another chat ID on the same machine (history by MAC).
  const aEarlier = await record(
    'aPrivate',
    as.inspector1,
    users.shopA,
    {
      objWechat: 'wxid_alphaSecretAlt',
      objWechatName: 'AlphaHiddenAltName',
      mac: 'a7:1c:e5:3b:9d:42',
      objClientName: 'AlphaHiddenClientShop',
      description: 'AlphaHiddenRemark',
      ifPublic: 0,
    },
    A_PRICE,
    50,
  );

  // ── ledger: recharges recorded by staff (the orders charged already) ──
  for (const [shop, remark] of [
    [users.shopA, 'AlphaHiddenRecharge'],
    [users.shopB, 'BravoRecharge'],
  ] as const) {
    const recharged = await call(ctx, 'POST', '/api/admin/user/recharge', {
      as: as.admin,
      payload: { userId: shop.id, amount: 100000, remark },
    });
    if (recharged.status !== 200) throw new Error(`recharge: ${recharged.msg}`);
  }

  // ── an announcement, a dictionary type with an entry, a role: the shared records ──
  const announced = await call<{ id: number }>(ctx, 'POST', '/api/admin/announcement/add', {
    as: as.superAdmin,
    payload: { title: 'Matrix notice', type: 'notice', content: '<p>For everyone</p>' },
  });
  if (announced.status !== 200) throw new Error(`announcement: ${announced.msg}`);
  const dictType = { code: 'mx_type', name: 'Matrix type' };
  const typeMade = await call<{ id: number }>(ctx, 'POST', '/api/admin/dict/type', { as: as.superAdmin, payload: dictType });
  if (typeMade.status !== 200) throw new Error(`dict type: ${typeMade.msg}`);
  const dictData = { typeCode: 'mx_type', label: 'Matrix entry', value: 'mx_value' };
  const dataMade = await call<{ id: number }>(ctx, 'POST', '/api/admin/dict/data', { as: as.superAdmin, payload: dictData });
  if (dataMade.status !== 200) throw new Error(`dict data: ${dataMade.msg}`);
  const role = { name: 'mx_role', description: 'Matrix role' };
  const roleMade = await call<{ id: number }>(ctx, 'POST', '/api/admin/role/create', {
    as: as.superAdmin,
    payload: { ...role, permissions: ['order:view'], isAdmin: false },
  });
  if (roleMade.status !== 200) throw new Error(`role: ${roleMade.msg}`);

  await new Promise((resolve) => setImmediate(resolve));
  await ctx.app.flushOperationLogs();
  const log = await ctx.db.selectFrom('operationLogs').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
  const message = await ctx.db.selectFrom('messages').select('id').where('userId', '=', users.shopA.id).executeTakeFirstOrThrow();

  let counter = 0;
  const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;
  const passwordStep = async (user: TestUser, step: 'enrol' | 'required') => {
    const first = await call<{ secondFactor?: string; ticket?: string }>(ctx, 'POST', '/api/admin/user/login', {
      payload: { username: user.username, password: user.password },
    });
    if (first.status !== 200 || first.data.secondFactor !== step || first.data.ticket === undefined)
      throw new Error(`sign-in of ${user.username}: expected step ${step}, got ${first.status} ${first.msg} ${JSON.stringify(first.data)}`);
    return first.data.ticket;
  };
  const enrolTicket = async () => {
    const user = await createUser(ctx, 'admin', { username: `mx_2fa_${unique()}` });
    return { user, ticket: await passwordStep(user, 'enrol') };
  };
  const requiredTicket = async () => {
    const { user, ticket } = await enrolTicket();
    const enrolment = await call<{ secret: string }>(ctx, 'POST', '/api/admin/user/login/enrol', { payload: { ticket } });
    if (enrolment.status !== 200) throw new Error(`enrol ${user.username}: ${enrolment.msg}`);
    const { secret } = enrolment.data;
    const confirmed = await call(ctx, 'POST', '/api/admin/user/login/second-factor', { payload: { ticket, code: totpCode(secret) } });
    if (confirmed.status !== 200) throw new Error(`confirm ${user.username}: ${confirmed.msg}`);
    return { user, ticket: await passwordStep(user, 'required'), secret };
  };
  const aPrivateKeys = orders.aPrivate.markers.filter((m) => m.startsWith('evidence/'));
  return {
    ctx,
    as,
    orders,
    aPrivateMarkers: [...new Set([...orders.aPrivate.markers, ...aEarlier.markers, 'AlphaHiddenRecharge'])],
    reducedMarkers: [
      users.shopA.username,
      nicknames.shopA,
      users.inspector2.username,
      nicknames.inspector2,
      String(A_PRICE),
      (A_PRICE / 100).toFixed(2),
      // As the product writes money in a text (a message, a log line, a summary): ¥4,321.87.
      formatMoney(A_PRICE).replace('¥', ''),
    ],
    aPrivateKeys,
    inspector1AvatarKey: (await uploadImage(ctx, as.inspector1, 'avatar', pngBytes(300, 60))).key,
    aMessageId: Number(message.id),
    victim,
    announcementId: announced.data.id,
    logId: Number(log.id),
    dictType: { id: typeMade.data.id, ...dictType },
    dictData: { id: dataMade.data.id, ...dictData },
    role: { id: roleMade.data.id, ...role },
    freshSession: (who) => (who.account === null ? Promise.resolve({}) : signIn(ctx, who.account, who.view)),
    unique,
    enrolTicket,
    requiredTicket,
  };
}

/** A MAC as the product may write it: with colons, with hyphens, bare. */
function macForms(mac: string): string[] {
  const bare = mac.replace(/[^0-9a-f]/gi, '');
  const pairs = bare.match(/../g) ?? [];
  return [pairs.join(':'), pairs.join('-'), bare];
}
