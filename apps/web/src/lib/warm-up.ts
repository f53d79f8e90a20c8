/**
 * Work a signed-in screen needs before it shows, started early by a screen that knows where the
 * user goes next: the login form starts the next screen's code with the sign-in call, and the
 * signed-in user's info beside the saved-language call, instead of one after the other. The
 * app (app/router.tsx) registers how; until it has (a component test), asking does nothing.
 */
export interface WarmUp {
  /** The code the screen at `location` (path and query) needs: its chunks, its layout's, the guard's, the screens' messages. */
  screen(location: string): void;
  /** The user of the token just stored (GET /api/admin/user/info), for the route guard to find. */
  user(): void;
  /** The signed-in screens' table (app/signed-in-screens.ts): which chunks each screen needs. */
  code(): void;
}

let registered: WarmUp | null = null;

export function registerWarmUp(warmUp: WarmUp): void {
  registered = warmUp;
}

/**
 * After the next frame, so the click's feedback paints first and the sign-in call is on the wire
 * before the chunks (the browser opens only a few connections to one host at a time).
 */
export function warmUpScreen(location: string): void {
  const warmUp = registered;
  if (warmUp === null) return;
  requestAnimationFrame(() => setTimeout(() => warmUp.screen(location), 0));
}

export const warmUpUser = (): void => registered?.user();

/**
 * Once the user starts on the login form (a key, a tap, text put in): the signed-in screens' table,
 * a small chunk that every signed-in screen's code is loaded through. Not with the page: the login
 * page's first load does without it (decision 0112); by the sign-in click it is in. Once per page.
 */
let codeWarmed = false;
export function warmUpCode(): void {
  const warmUp = registered;
  if (warmUp === null || codeWarmed) return;
  codeWarmed = true;
  warmUp.code();
}
