// The find dialog (Ctrl+K): type, then Enter or click selects the node and centres it on the canvas.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { findNodes } from './find';
import { useEditor } from './store';

export function FindDialog({ onPick }: { onPick: (id: string) => void }) {
  const { t } = useTranslation();
  const doc = useEditor((s) => s.doc);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setOpen(true);
      } else if (event.key === 'Escape') setOpen(false);
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  if (!open) return null;
  const found = findNodes(doc, query, (type) => t(`node_type_${type}`));
  const pick = (id: string) => {
    setOpen(false);
    setQuery('');
    onPick(id);
  };
  return (
    <div className="find" role="dialog" aria-modal="true" aria-labelledby="find-title">
      <h2 id="find-title">{t('ui_find_title')}</h2>
      <input
        ref={input}
        aria-label={t('ui_find_query')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && found[0]) pick(found[0].id);
        }}
      />
      <ul>
        {found.map((node) => (
          <li key={node.id}>
            <button type="button" onClick={() => pick(node.id)}>
              {t('ui_canvas_node_label', { type: t(`node_type_${node.type}`), id: node.label ?? node.id })}
            </button>
          </li>
        ))}
      </ul>
      {query && found.length === 0 && <p>{t('ui_find_none')}</p>}
    </div>
  );
}
