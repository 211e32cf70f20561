-- A flow's name and description can change without a new version (issue 33): versions are for what runs,
-- and a rename or a new description runs nothing differently. The name was on the flow already; the
-- description joins it, taken from each flow's newest document. Each version's document keeps the name
-- and description it was saved with.
ALTER TABLE flows ADD COLUMN description text;

UPDATE flows AS f SET description = v.document ->> 'description'
FROM flow_versions AS v
WHERE v.flow_id = f.id AND v.version = f.latest_version;

-- A rename looks for another flow of the same name, case folded.
CREATE INDEX flows_name_folded ON flows (lower(name));
