-- teams: every vendor but the demo's three and 2021 items' stand-in was on the class board; of those,
-- the ones an app used stay.

ALTER TABLE vendor ADD COLUMN team boolean NOT NULL DEFAULT false;
UPDATE vendor SET team = true
WHERE identifier NOT IN (
    'a09d8d1a-d1b8-11ec-9676-bd41bb2bb233', 'f27bc126-0335-11ed-9676-1776ba240ec2',
    'cd706a3e-66db-11ec-9626-796401f2341a', '00000000-0000-4000-8000-000000002021')
OR id IN (SELECT vendor_id FROM team_step);
