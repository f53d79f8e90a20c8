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
}

let registered: WarmUp | null = null;

export function registerWarmUp(warmUp: WarmUp): void {
  registered = warmUp;
}

export const warmUpScreen = (location: string): void => registered?.screen(location);

export const warmUpUser = (): void => registered?.user();
