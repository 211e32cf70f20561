// The findings on one field of the selected node, under that field, in the reader's words.
import { useFieldFindings } from '../flows/findingSentences';

export function FieldFindings({ nodeId, field }: { nodeId: string; field: string | null }) {
  const sentences = useFieldFindings(nodeId, field);
  if (sentences.length === 0) return null;
  return (
    <ul className="field-findings">
      {sentences.map((sentence) => (
        <li key={sentence}>{sentence}</li>
      ))}
    </ul>
  );
}
