// rjsf's buttons with words instead of icons. Its own draw a Bootstrap glyphicon, a font the editor does
// not load, so "add" and "remove" were empty boxes with only a tooltip; these say what they do, in the
// reader's language (the form's translateString reads the catalogs, ConfigPanel.tsx).
import { TranslatableString, type IconButtonProps, type TemplatesType } from '@rjsf/utils';

type Button = (props: IconButtonProps) => React.ReactElement;

function textButton(words: TranslatableString, className: string): Button {
  return function TextButton(props) {
    // rjsf's own style (`border: 0`, for an icon) would make the words look like a label, not a button.
    const {
      iconType: _type,
      icon: _icon,
      uiSchema: _ui,
      registry,
      className: extra,
      style: _style,
      ...button
    } = props;
    return (
      <button type="button" className={`form-button ${className} ${extra ?? ''}`} {...button}>
        {registry.translateString(words)}
      </button>
    );
  };
}

export const FORM_BUTTONS: Partial<TemplatesType['ButtonTemplates']> = {
  AddButton: textButton(TranslatableString.AddItemButton, 'form-add'),
  RemoveButton: textButton(TranslatableString.RemoveButton, 'form-remove'),
  MoveUpButton: textButton(TranslatableString.MoveUpButton, 'form-move'),
  MoveDownButton: textButton(TranslatableString.MoveDownButton, 'form-move'),
  CopyButton: textButton(TranslatableString.CopyButton, 'form-copy'),
};
