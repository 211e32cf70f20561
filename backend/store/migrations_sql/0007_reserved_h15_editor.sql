-- Reserved for the editor branch's migration (0007), so that this branch's 0008 loads without a gap.
-- The lead drops this file when merging that branch.
SELECT 1;
