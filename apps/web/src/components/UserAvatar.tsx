import { Avatar } from 'antd';
import type { AvatarProps } from 'antd';

/**
 * Initials for a user without a picture: the first letters of the first two words of a Latin
 * name ("Shop Owner" → "SO", "admin01" → "A"), or the first character of any other name
 * ("店铺0001" → "店"). Empty names give "?".
 */
export function initialsOf(name: string | null | undefined): string {
  const trimmed = (name ?? '').trim();
  if (trimmed === '') return '?';
  const first = Array.from(trimmed)[0]!;
  if (!/^[A-Za-z]$/.test(first)) return first.toUpperCase();
  const words = trimmed.split(/[\s._-]+/).filter((w) => /^[A-Za-z]/.test(w));
  return words
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

export interface UserAvatarProps extends Omit<AvatarProps, 'src' | 'children'> {
  /** The user's avatar URL ('' or absent: none). */
  avatar?: string | null | undefined;
  /** The name whose initials show without a picture (or when it cannot load). */
  name?: string | null | undefined;
}

/** A user's picture (decision 0062), or their initials on the theme colour. */
export function UserAvatar({ avatar, name, style, ...rest }: UserAvatarProps) {
  const src = avatar ? avatar : undefined;
  return (
    <Avatar
      src={src}
      alt={name ?? undefined}
      style={src === undefined ? { backgroundColor: 'var(--ant-color-primary, #1677ff)', ...style } : style}
      {...rest}
    >
      {initialsOf(name)}
    </Avatar>
  );
}
