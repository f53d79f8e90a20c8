import type { ComponentType } from 'react';
import {
  CommentOutlined,
  FileTextOutlined,
  LinkOutlined,
  ShopOutlined,
  ToolOutlined,
  TrophyOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { LINK_ICONS } from '@clearplay/contract/constants';

type LinkIconName = (typeof LINK_ICONS)[number];

/**
 * The icon names staff may put in a link's cssClass (LINK_ICONS), drawn from the app's icon set
 * (emoji needed an emoji font: without one they showed as ⊠). Any other value: the link icon.
 */
const ICONS: Record<LinkIconName, ComponentType> = {
  'icon-game': TrophyOutlined,
  'icon-tool': ToolOutlined,
  'icon-doc': FileTextOutlined,
  'icon-shop': ShopOutlined,
  'icon-community': CommentOutlined,
  'icon-video': VideoCameraOutlined,
  'icon-link': LinkOutlined,
};

export function LinkIcon({ icon }: { icon: string }) {
  const Icon = ICONS[icon as LinkIconName] ?? LinkOutlined;
  return (
    <span className="pub-link-icon" aria-hidden="true">
      <Icon />
    </span>
  );
}
