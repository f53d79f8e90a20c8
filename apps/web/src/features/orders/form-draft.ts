import type { ServerFieldError } from '../../components/FormModal.tsx';
import type { OrderFormValues } from './components/OrderFormFields.tsx';

/**
 * The order form page's input while its failure page shows: "back to the form"
 * brings it back, with the server's field errors on their fields. In memory only: a reload or
 * another user starts from an empty form; a successful submit forgets it.
 */
export interface OrderFormDraft {
  values: Partial<OrderFormValues>;
  errors: ServerFieldError[];
}

let draft: OrderFormDraft | null = null;

export const saveOrderFormDraft = (next: OrderFormDraft): void => {
  draft = next;
};

/** The draft, once: the form that restores it owns it from then on. */
export function takeOrderFormDraft(): OrderFormDraft | null {
  const taken = draft;
  draft = null;
  return taken;
}

export const forgetOrderFormDraft = (): void => {
  draft = null;
};
