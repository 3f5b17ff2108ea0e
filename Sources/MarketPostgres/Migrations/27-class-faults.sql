-- class faults: what the teacher rehearses for every team at once

CREATE TABLE class_faults (id int PRIMARY KEY CHECK (id = 1), faults bytea NOT NULL);
