import { useEffect } from 'react';
import { Button, Divider, Flex, Tooltip } from 'antd';
import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  UnorderedListOutlined,
  UndoOutlined,
  RedoOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useTranslation } from 'react-i18next';
import '../announcements.css';

export interface RichTextEditorProps {
  value?: string;
  onChange?: (html: string) => void;
  placeholder?: string;
}

/**
 * The announcement editor (Tiptap 3, lazy-loaded by the publish form): headings, bold,
 * italic, bullet and numbered lists, links. It hands the form HTML; the server cleans it
 * against its allow-list (decision 0042), so nothing here is trusted.
 */
export default function RichTextEditor({ value, onChange }: RichTextEditorProps) {
  const { t } = useTranslation();
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        codeBlock: false,
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'], defaultProtocol: 'https' },
      }),
    ],
    content: value ?? '',
    editorProps: { attributes: { class: 'announcement-editor__content announcement-html', 'data-testid': 'announcement-editor' } },
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? '' : e.getHTML()),
  });
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      h2: e?.isActive('heading', { level: 2 }) ?? false,
      h3: e?.isActive('heading', { level: 3 }) ?? false,
      bullet: e?.isActive('bulletList') ?? false,
      ordered: e?.isActive('orderedList') ?? false,
      link: e?.isActive('link') ?? false,
    }),
  });
  // The form was reset (after a publish): empty the editor too.
  useEffect(() => {
    if (editor && (value ?? '') === '' && !editor.isEmpty) editor.commands.clearContent();
  }, [editor, value]);

  const chain = () => editor.chain().focus();
  const setLink = () => {
    const previous = (editor.getAttributes('link').href as string | undefined) ?? '';
    const url = window.prompt(t('announcement.editor.linkPrompt'), previous);
    if (url === null) return;
    if (url.trim() === '') chain().extendMarkRange('link').unsetLink().run();
    else chain().extendMarkRange('link').setLink({ href: url.trim() }).run();
  };
  const tool = (key: string, label: string, icon: React.ReactNode, active: boolean, run: () => void) => (
    <Tooltip title={label} key={key}>
      <Button
        size="small"
        type={active ? 'primary' : 'text'}
        icon={icon}
        aria-label={label}
        aria-pressed={active}
        data-testid={`editor-${key}`}
        onMouseDown={(e) => e.preventDefault()}
        onClick={run}
      />
    </Tooltip>
  );
  return (
    <div className="announcement-editor">
      <Flex className="announcement-editor__toolbar" wrap gap={2} align="center">
        {tool('h2', t('announcement.editor.h2'), <span className="announcement-editor__h">H2</span>, state.h2, () =>
          chain().toggleHeading({ level: 2 }).run(),
        )}
        {tool('h3', t('announcement.editor.h3'), <span className="announcement-editor__h">H3</span>, state.h3, () =>
          chain().toggleHeading({ level: 3 }).run(),
        )}
        <Divider orientation="vertical" />
        {tool('bold', t('announcement.editor.bold'), <BoldOutlined />, state.bold, () => chain().toggleBold().run())}
        {tool('italic', t('announcement.editor.italic'), <ItalicOutlined />, state.italic, () => chain().toggleItalic().run())}
        {tool('link', t('announcement.editor.link'), <LinkOutlined />, state.link, setLink)}
        <Divider orientation="vertical" />
        {tool('bullet', t('announcement.editor.bulletList'), <UnorderedListOutlined />, state.bullet, () =>
          chain().toggleBulletList().run(),
        )}
        {tool('ordered', t('announcement.editor.orderedList'), <OrderedListOutlined />, state.ordered, () =>
          chain().toggleOrderedList().run(),
        )}
        <Divider orientation="vertical" />
        {tool('undo', t('announcement.editor.undo'), <UndoOutlined />, false, () => chain().undo().run())}
        {tool('redo', t('announcement.editor.redo'), <RedoOutlined />, false, () => chain().redo().run())}
      </Flex>
      <EditorContent editor={editor} />
    </div>
  );
}
