/** Password rules shared by every form that sets one (docs/product.md "The back office"). */
export const USERNAME_MIN = 6;
export const USERNAME_MAX = 20;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;
