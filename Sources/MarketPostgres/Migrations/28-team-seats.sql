-- Teams seated in the order they joined (by id, for the teams already there): a team's own port is its seat's.

ALTER TABLE vendor ADD COLUMN team_seat integer;
UPDATE vendor SET team_seat = seated.seat
FROM (SELECT id, row_number() OVER (ORDER BY id) AS seat FROM vendor WHERE team) AS seated
WHERE vendor.id = seated.id;
CREATE UNIQUE INDEX vendor_by_team_seat ON vendor (team_seat);
