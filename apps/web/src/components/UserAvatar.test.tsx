import { describe, expect, it } from 'vitest';
import { renderInApp } from '../test/render.tsx';
import { initialsOf, UserAvatar } from './UserAvatar.tsx';

describe('UserAvatar', () => {
  it('initials: two words of a Latin name, the first letter of one, the first character otherwise', () => {
    expect(initialsOf('Shop Owner')).toBe('SO');
    expect(initialsOf('admin01')).toBe('A');
    expect(initialsOf('inspector_one two')).toBe('IO');
    expect(initialsOf(' 店铺0001 ')).toBe('店');
    expect(initialsOf('')).toBe('?');
    expect(initialsOf(null)).toBe('?');
  });

  it('shows the picture when there is one, the initials when there is none', () => {
    const { container, rerender } = renderInApp(<UserAvatar avatar="/upload/files/avatar/3/abc" name="Shop Owner" />);
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/upload/files/avatar/3/abc');
    rerender(<UserAvatar avatar="" name="Shop Owner" />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe('SO');
  });
});
