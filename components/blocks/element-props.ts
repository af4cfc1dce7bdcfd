import type { Choice } from "./actions";
import type { Json } from "./shape";

/** Where an element sits: in an input block (labelled by it) or loose in a section or an actions block. */
export interface Placement {
  blockId: string;
  /** The input block's control id and label id; absent outside input blocks. */
  input?: { controlId: string; labelId: string; dispatchAction: boolean; errorId?: string };
}

/** The props every interactive element gets: itself, and what to call with the member's choice. */
export interface ElementProps {
  element: Json;
  /** Names the control: the input block's label, else the element's placeholder or kind. */
  naming: { id?: string; "aria-labelledby"?: string; "aria-label"?: string; "aria-invalid"?: true; "aria-describedby"?: string };
  /**
   * The member's choice: the view's state and, outside an input block (or with dispatch_action), an action.
   * `options`: the option objects picked where the element does not define them (an external select's, from the app).
   */
  onChoice(choice: Choice, options?: Json[]): void;
  /** A change that is state only (a text field's keystrokes, before Enter). */
  onEdit(choice: Choice): void;
  /** The element's act is in flight: it shows busy and takes no other choice until it is done. */
  busy: boolean;
}
