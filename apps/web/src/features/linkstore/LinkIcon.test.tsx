import { render } from '@testing-library/react';
import { LINK_ICONS } from '@clearplay/contract/constants';
import { describe, expect, it } from 'vitest';
import { LinkIcon } from './LinkIcon.tsx';

/** Emoji need an emoji font; a machine without one draws them as ⊠. */
const EMOJI = /\p{Extended_Pictographic}/u;

describe('link-store icons', () => {
  it.each([...LINK_ICONS, '', 'icon-unknown'])('"%s" is drawn from the icon set, not as an emoji (⊠ without an emoji font)', (icon) => {
    const { container } = render(<LinkIcon icon={icon} />);
    expect(container.textContent ?? '').not.toMatch(EMOJI);
    expect(container.querySelector('.anticon svg')).not.toBeNull();
  });

  it('gives each named icon its own picture', () => {
    const drawn = LINK_ICONS.map((icon) =>
      render(<LinkIcon icon={icon} />)
        .container.querySelector('.anticon')
        ?.getAttribute('aria-label'),
    );
    expect(new Set(drawn).size).toBe(LINK_ICONS.length);
  });
});
