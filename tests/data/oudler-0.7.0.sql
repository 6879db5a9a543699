BEGIN TRANSACTION;
CREATE TABLE actions (
	match_id VARCHAR(32) NOT NULL, 
	seq INTEGER NOT NULL, 
	seat INTEGER, 
	kind VARCHAR(16) NOT NULL, 
	action JSON NOT NULL, 
	created DATETIME NOT NULL, 
	stand_in BOOLEAN DEFAULT 0 NOT NULL, 
	PRIMARY KEY (match_id, seq), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
);
INSERT INTO "actions" VALUES('fe5c5f8846ef',0,2,'bid','"pass"','2026-12-06 07:13:40.416520',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',1,3,'bid','"pass"','2026-12-06 07:13:40.436273',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',2,0,'bid','"garde"','2026-12-06 07:13:40.447428',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',3,1,'bid','"pass"','2026-12-06 07:13:40.461023',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',4,0,'discard','["S2", "S4", "H4", "H7", "D10", "C1"]','2026-12-06 07:13:40.470069',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',5,0,'chelem','false','2026-12-06 07:13:40.482089',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',6,2,'card','"C3"','2026-12-06 07:13:40.495810',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',7,3,'card','"C7"','2026-12-06 07:13:40.507375',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',8,0,'card','"C4"','2026-12-06 07:13:40.516111',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',9,1,'card','"CK"','2026-12-06 07:13:40.527798',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',10,1,'card','"SK"','2026-12-06 07:13:40.541806',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',11,2,'card','"S3"','2026-12-06 07:13:40.555453',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',12,3,'card','"SJ"','2026-12-06 07:13:40.567317',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',13,0,'card','"S6"','2026-12-06 07:13:40.579241',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',14,1,'card','"CQ"','2026-12-06 07:13:40.590854',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',15,2,'card','"C6"','2026-12-06 07:13:40.611266',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',16,3,'card','"C2"','2026-12-06 07:13:40.631558',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',17,0,'card','"T19"','2026-12-06 07:13:40.639831',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',18,0,'card','"T10"','2026-12-06 07:13:40.651367',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',19,1,'card','"T13"','2026-12-06 07:13:40.667812',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',20,2,'card','"T16"','2026-12-06 07:13:40.680338',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',21,3,'card','"T18"','2026-12-06 07:13:40.690827',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',22,3,'card','"SQ"','2026-12-06 07:13:40.703850',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',23,0,'card','"S1"','2026-12-06 07:13:40.711765',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',24,1,'card','"S7"','2026-12-06 07:13:40.724148',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',25,2,'card','"S5"','2026-12-06 07:13:40.732729',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',26,3,'card','"D5"','2026-12-06 07:13:40.747508',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',27,0,'card','"DK"','2026-12-06 07:13:40.759001',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',28,1,'card','"D1"','2026-12-06 07:13:40.769142',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',29,2,'card','"D3"','2026-12-06 07:13:40.786866',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',30,0,'card','"T7"','2026-12-06 07:13:40.793542',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',31,1,'card','"T15"','2026-12-06 07:13:40.810886',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',32,2,'card','"T9"','2026-12-06 07:13:40.821386',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',33,3,'card','"T20"','2026-12-06 07:13:40.834304',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',34,3,'card','"DQ"','2026-12-06 07:13:40.847997',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',35,0,'card','"D8"','2026-12-06 07:13:40.862437',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',36,1,'card','"DJ"','2026-12-06 07:13:40.881869',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',37,2,'card','"D4"','2026-12-06 07:13:40.896626',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',38,3,'card','"S9"','2026-12-06 07:13:40.907135',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',39,0,'card','"T12"','2026-12-06 07:13:40.917373',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',40,1,'card','"SC"','2026-12-06 07:13:40.926641',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',41,2,'card','"S8"','2026-12-06 07:13:40.944762',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',42,0,'card','"HJ"','2026-12-06 07:13:40.953746',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',43,1,'card','"H3"','2026-12-06 07:13:40.962740',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',44,2,'card','"HQ"','2026-12-06 07:13:40.979323',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',45,3,'card','"HC"','2026-12-06 07:13:40.987925',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',46,2,'card','"C10"','2026-12-06 07:13:41.002386',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',47,3,'card','"T2"','2026-12-06 07:13:41.018980',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',48,0,'card','"T21"','2026-12-06 07:13:41.032272',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',49,1,'card','"C5"','2026-12-06 07:13:41.040713',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',50,0,'card','"D6"','2026-12-06 07:13:41.049067',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',51,1,'card','"D7"','2026-12-06 07:13:41.058647',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',52,2,'card','"DC"','2026-12-06 07:13:41.068299',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',53,3,'card','"D9"','2026-12-06 07:13:41.076744',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',54,2,'card','"CJ"','2026-12-06 07:13:41.094482',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',55,3,'card','"T4"','2026-12-06 07:13:41.106763',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',56,0,'card','"T5"','2026-12-06 07:13:41.119181',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',57,1,'card','"C8"','2026-12-06 07:13:41.131902',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',58,0,'card','"T8"','2026-12-06 07:13:41.139517',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',59,1,'card','"T3"','2026-12-06 07:13:41.163328',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',60,2,'card','"H2"','2026-12-06 07:13:41.175500',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',61,3,'card','"T11"','2026-12-06 07:13:41.192182',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',62,3,'card','"S10"','2026-12-06 07:13:41.203909',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',63,0,'card','"T17"','2026-12-06 07:13:41.219748',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',64,1,'card','"T6"','2026-12-06 07:13:41.231554',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',65,2,'card','"H5"','2026-12-06 07:13:41.243528',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',66,0,'card','"H6"','2026-12-06 07:13:41.251825',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',67,1,'card','"H9"','2026-12-06 07:13:41.269076',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',68,2,'card','"H10"','2026-12-06 07:13:41.283534',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',69,3,'card','"H8"','2026-12-06 07:13:41.292496',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',70,2,'card','"EX"','2026-12-06 07:13:41.306651',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',71,3,'card','"T14"','2026-12-06 07:13:41.321644',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',72,0,'card','"HK"','2026-12-06 07:13:41.332339',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',73,1,'card','"D2"','2026-12-06 07:13:41.351203',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',74,3,'card','"T1"','2026-12-06 07:13:41.367228',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',75,0,'card','"H1"','2026-12-06 07:13:41.375814',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',76,1,'card','"C9"','2026-12-06 07:13:41.391575',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',77,2,'card','"CC"','2026-12-06 07:13:41.403108',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',78,NULL,'next_deal','null','2026-12-06 07:13:41.414824',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',79,3,'bid','"pass"','2026-12-06 07:13:41.431924',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',80,0,'bid','"pass"','2026-12-06 07:13:41.444548',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',81,1,'bid','"prise"','2026-12-06 07:13:41.460020',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',82,2,'bid','"pass"','2026-12-06 07:13:41.468907',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',83,1,'discard','["H3", "DC", "C1", "C2", "CC", "CQ"]','2026-12-06 07:13:41.487817',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',84,1,'chelem','false','2026-12-06 07:13:41.496726',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',85,3,'card','"DK"','2026-12-06 07:13:41.513257',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',86,0,'card','"DJ"','2026-12-06 07:13:41.522531',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',87,1,'card','"D4"','2026-12-06 07:13:41.535240',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',88,2,'card','"D7"','2026-12-06 07:13:41.552455',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',89,3,'card','"CK"','2026-12-06 07:13:41.563659',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',90,0,'card','"CJ"','2026-12-06 07:13:41.575865',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',91,1,'card','"T1"','2026-12-06 07:13:41.592327',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',92,2,'card','"C4"','2026-12-06 07:13:41.607809',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',93,1,'card','"SK"','2026-12-06 07:13:41.619615',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',94,2,'card','"S4"','2026-12-06 07:13:41.631572',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',95,3,'card','"S8"','2026-12-06 07:13:41.642871',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',96,0,'card','"S3"','2026-12-06 07:13:41.655469',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',97,1,'card','"D5"','2026-12-06 07:13:41.671711',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',98,2,'card','"D8"','2026-12-06 07:13:41.682971',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',99,3,'card','"D3"','2026-12-06 07:13:41.706989',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',100,0,'card','"D2"','2026-12-06 07:13:41.719032',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',101,2,'card','"C7"','2026-12-06 07:13:41.732376',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',102,3,'card','"C5"','2026-12-06 07:13:41.740946',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',103,0,'card','"C10"','2026-12-06 07:13:41.752224',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',104,1,'card','"T2"','2026-12-06 07:13:41.765169',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',105,1,'card','"S1"','2026-12-06 07:13:41.774845',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',106,2,'card','"SQ"','2026-12-06 07:13:41.783807',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',107,3,'card','"S9"','2026-12-06 07:13:41.798619',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',108,0,'card','"T4"','2026-12-06 07:13:41.805505',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',109,0,'card','"T15"','2026-12-06 07:13:41.817804',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',110,1,'card','"EX"','2026-12-06 07:13:41.835684',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',111,2,'card','"T20"','2026-12-06 07:13:41.844394',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',112,3,'card','"T5"','2026-12-06 07:13:41.858890',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',113,2,'card','"C8"','2026-12-06 07:13:41.872368',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',114,3,'card','"C9"','2026-12-06 07:13:41.883059',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',115,0,'card','"C6"','2026-12-06 07:13:41.895344',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',116,1,'card','"T3"','2026-12-06 07:13:41.910745',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',117,1,'card','"S2"','2026-12-06 07:13:41.929918',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',118,2,'card','"SC"','2026-12-06 07:13:41.946911',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',119,3,'card','"S10"','2026-12-06 07:13:41.963219',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',120,0,'card','"T19"','2026-12-06 07:13:41.977293',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',121,0,'card','"H8"','2026-12-06 07:13:41.986444',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',122,1,'card','"T6"','2026-12-06 07:13:42.004917',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',123,2,'card','"H4"','2026-12-06 07:13:42.019151',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',124,3,'card','"H2"','2026-12-06 07:13:42.031908',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',125,1,'card','"S5"','2026-12-06 07:13:42.043679',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',126,2,'card','"T8"','2026-12-06 07:13:42.060214',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',127,3,'card','"T11"','2026-12-06 07:13:42.073524',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',128,0,'card','"T12"','2026-12-06 07:13:42.087118',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',129,0,'card','"C3"','2026-12-06 07:13:42.095969',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',130,1,'card','"T9"','2026-12-06 07:13:42.112071',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',131,2,'card','"T21"','2026-12-06 07:13:42.123410',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',132,3,'card','"T13"','2026-12-06 07:13:42.135114',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',133,2,'card','"H5"','2026-12-06 07:13:42.147462',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',134,3,'card','"H7"','2026-12-06 07:13:42.159124',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',135,0,'card','"H1"','2026-12-06 07:13:42.167663',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',136,1,'card','"T10"','2026-12-06 07:13:42.183831',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',137,1,'card','"S6"','2026-12-06 07:13:42.195126',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',138,2,'card','"HQ"','2026-12-06 07:13:42.207357',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',139,3,'card','"T14"','2026-12-06 07:13:42.219037',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',140,0,'card','"T7"','2026-12-06 07:13:42.227623',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',141,3,'card','"HK"','2026-12-06 07:13:42.255070',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',142,0,'card','"H9"','2026-12-06 07:13:42.263741',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',143,1,'card','"T16"','2026-12-06 07:13:42.276800',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',144,2,'card','"H6"','2026-12-06 07:13:42.292105',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',145,1,'card','"S7"','2026-12-06 07:13:42.309246',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',146,2,'card','"HJ"','2026-12-06 07:13:42.323703',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',147,3,'card','"T17"','2026-12-06 07:13:42.344124',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',148,0,'card','"DQ"','2026-12-06 07:13:42.360007',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',149,3,'card','"D6"','2026-12-06 07:13:42.379763',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',150,0,'card','"D1"','2026-12-06 07:13:42.395122',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',151,1,'card','"T18"','2026-12-06 07:13:42.419334',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',152,2,'card','"D10"','2026-12-06 07:13:42.424248',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',153,1,'card','"SJ"','2026-12-06 07:13:42.428725',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',154,2,'card','"H10"','2026-12-06 07:13:42.433025',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',155,3,'card','"D9"','2026-12-06 07:13:42.437116',0);
INSERT INTO "actions" VALUES('fe5c5f8846ef',156,0,'card','"HC"','2026-12-06 07:13:42.440910',0);
INSERT INTO "actions" VALUES('a3afc82e7786',0,1,'bid','"prise"','2026-12-06 07:13:42.459098',0);
INSERT INTO "actions" VALUES('a3afc82e7786',1,2,'bid','"garde_sans"','2026-12-06 07:13:42.477418',0);
INSERT INTO "actions" VALUES('a3afc82e7786',2,3,'bid','"garde_contre"','2026-12-06 07:13:42.496593',0);
INSERT INTO "actions" VALUES('a3afc82e7786',3,0,'bid','"pass"','2026-12-06 07:13:42.506160',0);
INSERT INTO "actions" VALUES('a3afc82e7786',4,3,'chelem','false','2026-12-06 07:13:42.517277',0);
INSERT INTO "actions" VALUES('a3afc82e7786',5,1,'card','"H9"','2026-12-06 07:13:42.526754',0);
INSERT INTO "actions" VALUES('a3afc82e7786',6,2,'card','"H4"','2026-12-06 07:13:42.539331',0);
INSERT INTO "actions" VALUES('a3afc82e7786',7,3,'card','"EX"','2026-12-06 07:13:42.553034',0);
INSERT INTO "actions" VALUES('a3afc82e7786',8,0,'card','"H2"','2026-12-06 07:13:42.571465',0);
INSERT INTO "actions" VALUES('a3afc82e7786',9,1,'card','"D8"','2026-12-06 07:13:42.589026',0);
INSERT INTO "actions" VALUES('a3afc82e7786',10,2,'card','"DQ"','2026-12-06 07:13:42.611386',0);
INSERT INTO "actions" VALUES('a3afc82e7786',11,3,'card','"D7"','2026-12-06 07:13:42.627259',0);
INSERT INTO "actions" VALUES('a3afc82e7786',12,0,'card','"D4"','2026-12-06 07:13:42.642124',0);
INSERT INTO "actions" VALUES('a3afc82e7786',13,2,'card','"T10"','2026-12-06 07:13:42.660244',0);
INSERT INTO "actions" VALUES('a3afc82e7786',14,3,'card','"T15"','2026-12-06 07:13:42.675294',0);
INSERT INTO "actions" VALUES('a3afc82e7786',15,0,'card','"T17"','2026-12-06 07:13:42.688121',0);
INSERT INTO "actions" VALUES('a3afc82e7786',16,1,'card','"T21"','2026-12-06 07:13:42.711642',0);
INSERT INTO "actions" VALUES('a3afc82e7786',17,1,'card','"C1"','2026-12-06 07:13:42.723827',0);
INSERT INTO "actions" VALUES('a3afc82e7786',18,2,'card','"C10"','2026-12-06 07:13:42.744435',0);
INSERT INTO "actions" VALUES('a3afc82e7786',19,3,'card','"CC"','2026-12-06 07:13:42.767099',0);
INSERT INTO "actions" VALUES('a3afc82e7786',20,0,'card','"C4"','2026-12-06 07:13:42.783883',0);
INSERT INTO "actions" VALUES('a3afc82e7786',21,3,'card','"S3"','2026-12-06 07:13:42.811589',0);
INSERT INTO "actions" VALUES('a3afc82e7786',22,0,'card','"SK"','2026-12-06 07:13:42.828868',0);
INSERT INTO "actions" VALUES('a3afc82e7786',23,1,'card','"SC"','2026-12-06 07:13:42.844251',0);
INSERT INTO "actions" VALUES('a3afc82e7786',24,2,'card','"SJ"','2026-12-06 07:13:42.868445',0);
INSERT INTO "actions" VALUES('a3afc82e7786',25,0,'card','"T13"','2026-12-06 07:13:42.884984',0);
INSERT INTO "actions" VALUES('a3afc82e7786',26,1,'card','"T16"','2026-12-06 07:13:42.908323',0);
INSERT INTO "actions" VALUES('a3afc82e7786',27,2,'card','"T11"','2026-12-06 07:13:42.926952',0);
INSERT INTO "actions" VALUES('a3afc82e7786',28,3,'card','"T19"','2026-12-06 07:13:42.948360',0);
INSERT INTO "actions" VALUES('a3afc82e7786',29,3,'card','"HC"','2026-12-06 07:13:42.970469',0);
INSERT INTO "actions" VALUES('a3afc82e7786',30,0,'card','"H8"','2026-12-06 07:13:42.991534',0);
INSERT INTO "actions" VALUES('a3afc82e7786',31,1,'card','"H10"','2026-12-06 07:13:43.007782',0);
INSERT INTO "actions" VALUES('a3afc82e7786',32,2,'card','"HJ"','2026-12-06 07:13:43.027897',0);
INSERT INTO "actions" VALUES('a3afc82e7786',33,3,'card','"S2"','2026-12-06 07:13:43.054536',0);
INSERT INTO "actions" VALUES('a3afc82e7786',34,0,'card','"S1"','2026-12-06 07:13:43.068913',0);
INSERT INTO "actions" VALUES('a3afc82e7786',35,1,'card','"S10"','2026-12-06 07:13:43.096292',0);
INSERT INTO "actions" VALUES('a3afc82e7786',36,2,'card','"S4"','2026-12-06 07:13:43.119397',0);
INSERT INTO "actions" VALUES('a3afc82e7786',37,1,'card','"C3"','2026-12-06 07:13:43.140190',0);
INSERT INTO "actions" VALUES('a3afc82e7786',38,2,'card','"C8"','2026-12-06 07:13:43.159167',0);
INSERT INTO "actions" VALUES('a3afc82e7786',39,3,'card','"T3"','2026-12-06 07:13:43.179649',0);
INSERT INTO "actions" VALUES('a3afc82e7786',40,0,'card','"C5"','2026-12-06 07:13:43.191148',0);
INSERT INTO "actions" VALUES('a3afc82e7786',41,3,'card','"T5"','2026-12-06 07:13:43.208204',0);
INSERT INTO "actions" VALUES('a3afc82e7786',42,0,'card','"T7"','2026-12-06 07:13:43.231132',0);
INSERT INTO "actions" VALUES('a3afc82e7786',43,1,'card','"T12"','2026-12-06 07:13:43.249025',0);
INSERT INTO "actions" VALUES('a3afc82e7786',44,2,'card','"T4"','2026-12-06 07:13:43.271960',0);
INSERT INTO "actions" VALUES('a3afc82e7786',45,1,'card','"D10"','2026-12-06 07:13:43.299322',0);
INSERT INTO "actions" VALUES('a3afc82e7786',46,2,'card','"D2"','2026-12-06 07:13:43.323659',0);
INSERT INTO "actions" VALUES('a3afc82e7786',47,3,'card','"D5"','2026-12-06 07:13:43.354882',0);
INSERT INTO "actions" VALUES('a3afc82e7786',48,0,'card','"T6"','2026-12-06 07:13:43.374268',0);
INSERT INTO "actions" VALUES('a3afc82e7786',49,0,'card','"CK"','2026-12-06 07:13:43.406546',0);
INSERT INTO "actions" VALUES('a3afc82e7786',50,1,'card','"CJ"','2026-12-06 07:13:43.411299',0);
INSERT INTO "actions" VALUES('a3afc82e7786',51,2,'card','"C7"','2026-12-06 07:13:43.415505',0);
INSERT INTO "actions" VALUES('a3afc82e7786',52,3,'card','"T1"','2026-12-06 07:13:43.420175',0);
INSERT INTO "actions" VALUES('a3afc82e7786',53,3,'card','"S6"','2026-12-06 07:13:43.424879',0);
INSERT INTO "actions" VALUES('a3afc82e7786',54,0,'card','"S9"','2026-12-06 07:13:43.428395',0);
INSERT INTO "actions" VALUES('a3afc82e7786',55,1,'card','"SQ"','2026-12-06 07:13:43.434291',0);
INSERT INTO "actions" VALUES('a3afc82e7786',56,2,'card','"S5"','2026-12-06 07:13:43.448569',0);
INSERT INTO "actions" VALUES('a3afc82e7786',57,1,'card','"D3"','2026-12-06 07:13:43.462912',0);
INSERT INTO "actions" VALUES('a3afc82e7786',58,2,'card','"D6"','2026-12-06 07:13:43.487024',0);
INSERT INTO "actions" VALUES('a3afc82e7786',59,3,'card','"T14"','2026-12-06 07:13:43.507769',0);
INSERT INTO "actions" VALUES('a3afc82e7786',60,0,'card','"T2"','2026-12-06 07:13:43.523042',0);
INSERT INTO "actions" VALUES('a3afc82e7786',61,3,'card','"S8"','2026-12-06 07:13:43.547955',0);
INSERT INTO "actions" VALUES('a3afc82e7786',62,0,'card','"T8"','2026-12-06 07:13:43.551794',0);
INSERT INTO "actions" VALUES('a3afc82e7786',63,1,'card','"T20"','2026-12-06 07:13:43.556436',0);
INSERT INTO "actions" VALUES('a3afc82e7786',64,2,'card','"DJ"','2026-12-06 07:13:43.562413',0);
INSERT INTO "actions" VALUES('a3afc82e7786',65,1,'card','"C2"','2026-12-06 07:13:43.574418',0);
INSERT INTO "actions" VALUES('a3afc82e7786',66,2,'card','"D9"','2026-12-06 07:13:43.599096',0);
INSERT INTO "actions" VALUES('a3afc82e7786',67,3,'card','"T9"','2026-12-06 07:13:43.611542',0);
INSERT INTO "actions" VALUES('a3afc82e7786',68,0,'card','"C6"','2026-12-06 07:13:43.627227',0);
INSERT INTO "actions" VALUES('a3afc82e7786',69,3,'card','"HK"','2026-12-06 07:13:43.648604',0);
INSERT INTO "actions" VALUES('a3afc82e7786',70,0,'card','"HQ"','2026-12-06 07:13:43.673453',0);
INSERT INTO "actions" VALUES('a3afc82e7786',71,1,'card','"C9"','2026-12-06 07:13:43.683912',0);
INSERT INTO "actions" VALUES('a3afc82e7786',72,2,'card','"H6"','2026-12-06 07:13:43.696458',0);
INSERT INTO "actions" VALUES('a3afc82e7786',73,3,'card','"T18"','2026-12-06 07:13:43.724017',0);
INSERT INTO "actions" VALUES('a3afc82e7786',74,0,'card','"H5"','2026-12-06 07:13:43.760133',0);
INSERT INTO "actions" VALUES('a3afc82e7786',75,1,'card','"CQ"','2026-12-06 07:13:43.815937',0);
INSERT INTO "actions" VALUES('a3afc82e7786',76,2,'card','"D1"','2026-12-06 07:13:43.859306',0);
INSERT INTO "actions" VALUES('a3afc82e7786',77,NULL,'next_deal','null','2026-12-06 07:13:43.864212',0);
INSERT INTO "actions" VALUES('a3afc82e7786',78,2,'bid','"prise"','2026-12-06 07:13:43.871512',0);
INSERT INTO "actions" VALUES('a3afc82e7786',79,3,'bid','"garde"','2026-12-06 07:13:43.879534',0);
INSERT INTO "actions" VALUES('15cc0350067d',0,2,'bid','"pass"','2026-12-06 07:13:43.894371',0);
INSERT INTO "actions" VALUES('15cc0350067d',1,3,'bid','"pass"','2026-12-06 07:13:43.903470',0);
INSERT INTO "actions" VALUES('15cc0350067d',2,0,'bid','"garde_contre"','2026-12-06 07:13:45.023180',0);
INSERT INTO "actions" VALUES('15cc0350067d',3,1,'bid','"pass"','2026-12-06 07:13:45.047019',0);
INSERT INTO "actions" VALUES('15cc0350067d',4,0,'chelem','false','2026-12-06 07:13:45.050851',0);
INSERT INTO "actions" VALUES('15cc0350067d',5,2,'card','"CK"','2026-12-06 07:13:45.063382',0);
INSERT INTO "actions" VALUES('15cc0350067d',6,3,'card','"C6"','2026-12-06 07:13:45.076146',0);
INSERT INTO "actions" VALUES('15cc0350067d',7,0,'card','"C2"','2026-12-06 07:13:45.086987',0);
INSERT INTO "actions" VALUES('15cc0350067d',8,1,'card','"C1"','2026-12-06 07:13:45.102277',0);
INSERT INTO "actions" VALUES('15cc0350067d',9,2,'card','"S2"','2026-12-06 07:13:45.116275',0);
INSERT INTO "actions" VALUES('15cc0350067d',10,3,'card','"S5"','2026-12-06 07:13:45.130485',0);
INSERT INTO "actions" VALUES('15cc0350067d',11,0,'card','"S1"','2026-12-06 07:13:45.142628',0);
INSERT INTO "actions" VALUES('15cc0350067d',12,1,'card','"S7"','2026-12-06 07:13:45.159326',0);
INSERT INTO "actions" VALUES('15cc0350067d',13,1,'card','"SK"','2026-12-06 07:13:45.170924',0);
INSERT INTO "actions" VALUES('15cc0350067d',14,2,'card','"S3"','2026-12-06 07:13:45.180156',0);
INSERT INTO "actions" VALUES('15cc0350067d',15,3,'card','"S8"','2026-12-06 07:13:45.188807',0);
INSERT INTO "actions" VALUES('15cc0350067d',16,0,'card','"S10"','2026-12-06 07:13:45.200043',0);
INSERT INTO "actions" VALUES('15cc0350067d',17,1,'card','"C3"','2026-12-06 07:13:45.215359',0);
INSERT INTO "actions" VALUES('15cc0350067d',18,2,'card','"T5"','2026-12-06 07:13:45.228128',0);
INSERT INTO "actions" VALUES('15cc0350067d',19,3,'card','"C7"','2026-12-06 07:13:45.242641',0);
INSERT INTO "actions" VALUES('15cc0350067d',20,0,'card','"T18"','2026-12-06 07:13:45.258307',0);
INSERT INTO "actions" VALUES('15cc0350067d',21,0,'card','"T8"','2026-12-06 07:13:45.265958',0);
INSERT INTO "actions" VALUES('15cc0350067d',22,1,'card','"T11"','2026-12-06 07:13:45.281866',0);
INSERT INTO "actions" VALUES('15cc0350067d',23,2,'card','"T13"','2026-12-06 07:13:45.293171',0);
INSERT INTO "actions" VALUES('15cc0350067d',24,3,'card','"T19"','2026-12-06 07:13:45.306907',0);
INSERT INTO "actions" VALUES('15cc0350067d',25,3,'card','"DK"','2026-12-06 07:13:45.320146',0);
INSERT INTO "actions" VALUES('15cc0350067d',26,0,'card','"DJ"','2026-12-06 07:13:45.328385',0);
INSERT INTO "actions" VALUES('15cc0350067d',27,1,'card','"D9"','2026-12-06 07:13:45.339098',0);
INSERT INTO "actions" VALUES('15cc0350067d',28,2,'card','"D1"','2026-12-06 07:13:45.354910',0);
INSERT INTO "actions" VALUES('15cc0350067d',29,3,'card','"H5"','2026-12-06 07:13:45.368166',0);
INSERT INTO "actions" VALUES('15cc0350067d',30,0,'card','"H1"','2026-12-06 07:13:45.375962',0);
INSERT INTO "actions" VALUES('15cc0350067d',31,1,'card','"H6"','2026-12-06 07:13:45.384721',0);
INSERT INTO "actions" VALUES('15cc0350067d',32,2,'card','"HC"','2026-12-06 07:13:45.400652',0);
INSERT INTO "actions" VALUES('15cc0350067d',33,2,'card','"D4"','2026-12-06 07:13:45.410470',0);
INSERT INTO "actions" VALUES('15cc0350067d',34,3,'card','"D6"','2026-12-06 07:13:45.423080',0);
INSERT INTO "actions" VALUES('15cc0350067d',35,0,'card','"D5"','2026-12-06 07:13:45.430543',0);
INSERT INTO "actions" VALUES('15cc0350067d',36,1,'card','"T3"','2026-12-06 07:13:45.447519',0);
INSERT INTO "actions" VALUES('15cc0350067d',37,1,'card','"C4"','2026-12-06 07:13:45.458868',0);
INSERT INTO "actions" VALUES('15cc0350067d',38,2,'card','"T6"','2026-12-06 07:13:45.469259',0);
INSERT INTO "actions" VALUES('15cc0350067d',39,3,'card','"C8"','2026-12-06 07:13:45.478393',0);
INSERT INTO "actions" VALUES('15cc0350067d',40,0,'card','"T16"','2026-12-06 07:13:45.483633',0);
INSERT INTO "actions" VALUES('15cc0350067d',41,0,'card','"HK"','2026-12-06 07:13:45.494049',0);
INSERT INTO "actions" VALUES('15cc0350067d',42,1,'card','"H9"','2026-12-06 07:13:45.523811',0);
INSERT INTO "actions" VALUES('15cc0350067d',43,2,'card','"H3"','2026-12-06 07:13:45.543573',0);
INSERT INTO "actions" VALUES('15cc0350067d',44,3,'card','"H7"','2026-12-06 07:13:45.587366',0);
INSERT INTO "actions" VALUES('15cc0350067d',45,0,'card','"T4"','2026-12-06 07:13:45.612707',0);
INSERT INTO "actions" VALUES('15cc0350067d',46,1,'card','"T20"','2026-12-06 07:13:45.634025',0);
INSERT INTO "actions" VALUES('15cc0350067d',47,2,'card','"T21"','2026-12-06 07:13:45.671108',0);
INSERT INTO "actions" VALUES('15cc0350067d',48,3,'card','"T7"','2026-12-06 07:13:45.711026',0);
INSERT INTO "actions" VALUES('15cc0350067d',49,2,'card','"S6"','2026-12-06 07:13:45.730852',0);
INSERT INTO "actions" VALUES('15cc0350067d',50,3,'card','"SQ"','2026-12-06 07:13:45.755595',0);
INSERT INTO "actions" VALUES('15cc0350067d',51,0,'card','"SJ"','2026-12-06 07:13:45.767034',0);
INSERT INTO "actions" VALUES('15cc0350067d',52,1,'card','"SC"','2026-12-06 07:13:45.779414',0);
INSERT INTO "actions" VALUES('15cc0350067d',53,3,'card','"H10"','2026-12-06 07:13:45.784904',0);
INSERT INTO "actions" VALUES('15cc0350067d',54,0,'card','"H8"','2026-12-06 07:13:45.788441',0);
INSERT INTO "actions" VALUES('15cc0350067d',55,1,'card','"C5"','2026-12-06 07:13:45.793408',0);
INSERT INTO "actions" VALUES('15cc0350067d',56,2,'card','"HQ"','2026-12-06 07:13:45.803643',0);
INSERT INTO "actions" VALUES('15cc0350067d',57,2,'card','"D8"','2026-12-06 07:13:45.809427',0);
INSERT INTO "actions" VALUES('15cc0350067d',58,3,'card','"DC"','2026-12-06 07:13:45.815163',0);
INSERT INTO "actions" VALUES('15cc0350067d',59,0,'card','"DQ"','2026-12-06 07:13:45.819536',0);
INSERT INTO "actions" VALUES('15cc0350067d',60,1,'card','"C9"','2026-12-06 07:13:45.824103',0);
INSERT INTO "actions" VALUES('15cc0350067d',61,0,'card','"T1"','2026-12-06 07:13:45.828110',0);
INSERT INTO "actions" VALUES('15cc0350067d',62,1,'card','"C10"','2026-12-06 07:13:45.833377',0);
INSERT INTO "actions" VALUES('15cc0350067d',63,2,'card','"T14"','2026-12-06 07:13:45.847590',0);
INSERT INTO "actions" VALUES('15cc0350067d',64,3,'card','"T9"','2026-12-06 07:13:45.853848',0);
INSERT INTO "actions" VALUES('15cc0350067d',65,2,'card','"S9"','2026-12-06 07:13:46.103843',0);
INSERT INTO "actions" VALUES('15cc0350067d',66,3,'card','"T12"','2026-12-06 07:13:46.123843',0);
INSERT INTO "actions" VALUES('15cc0350067d',67,0,'card','"T2"','2026-12-06 07:13:46.132663',0);
INSERT INTO "actions" VALUES('15cc0350067d',68,1,'card','"CJ"','2026-12-06 07:13:46.156216',0);
INSERT INTO "actions" VALUES('15cc0350067d',69,3,'card','"HJ"','2026-12-06 07:13:46.167381',0);
INSERT INTO "actions" VALUES('15cc0350067d',70,0,'card','"H4"','2026-12-06 07:13:46.187253',0);
INSERT INTO "actions" VALUES('15cc0350067d',71,1,'card','"EX"','2026-12-06 07:13:46.200072',0);
INSERT INTO "actions" VALUES('15cc0350067d',72,2,'card','"T15"','2026-12-06 07:13:46.218319',0);
INSERT INTO "actions" VALUES('15cc0350067d',73,2,'card','"D10"','2026-12-06 07:13:46.233183',0);
INSERT INTO "actions" VALUES('15cc0350067d',74,3,'card','"D7"','2026-12-06 07:13:46.258341',0);
INSERT INTO "actions" VALUES('15cc0350067d',75,0,'card','"D3"','2026-12-06 07:13:46.274450',0);
INSERT INTO "actions" VALUES('15cc0350067d',76,1,'card','"CQ"','2026-12-06 07:13:46.294066',0);
INSERT INTO "actions" VALUES('e518774a567d',0,2,'bid','"garde_contre"','2026-12-06 07:14:13.651124',0);
CREATE TABLE analyses (
	match_id VARCHAR(32) NOT NULL, 
	deal INTEGER NOT NULL, 
	analysis JSON NOT NULL, 
	created DATETIME NOT NULL, 
	PRIMARY KEY (match_id, deal), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
);
INSERT INTO "analyses" VALUES('15cc0350067d',1,'{"seed": 5019628633291444370, "dealer": 1, "contract": "garde_contre", "declarer": 0, "scores": [-1152, 384, 384, 384], "decisions": [{"where": "bids[2]", "seat": 0, "kind": "bid", "played": "garde_contre", "best": "prise", "loss": 933.5, "se": 41.5, "close": false, "values": {"prise": 4.5, "pass": 0.0, "garde": -31.0, "garde_sans": -360.0, "garde_contre": -929.0}, "options": [{"action": "prise", "value": 4.5, "se": 49.1, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "pass", "value": 0.0, "se": 0.0, "diff_se": 49.1, "close": true, "worlds": 6}, {"action": "garde", "value": -31.0, "se": 98.2, "diff_se": 49.1, "close": true, "worlds": 6}, {"action": "garde_sans", "value": -360.0, "se": 157.9, "diff_se": 119.4, "close": false, "worlds": 6}, {"action": "garde_contre", "value": -929.0, "se": 52.9, "diff_se": 41.5, "close": false, "worlds": 6}], "reason": "With Prise the contract is made in 33\u00a0% of the deals that could be: +4.5 on average, against \u2212929.0 for Garde contre.", "reasons": {"en": "With Prise the contract is made in 33\u00a0% of the deals that could be: +4.5 on average, against \u2212929.0 for Garde contre.", "zh": "\u9009\u62e9 Prise\uff08\u5c0f\u53eb\uff09\uff0c\u5408\u7ea6\u5728 33% \u7684\u53ef\u80fd\u724c\u5c40\u4e2d\u5b8c\u6210\uff1a\u5e73\u5747\u5f97\u5206 +4.5\uff0cGarde contre\uff08\u5e95\u5f52\u5bf9\u65b9\uff09\u4e3a \u2212929.0\u3002", "fr": "Avec une prise, le contrat est rempli dans 33\u00a0% des donnes possibles\u00a0: +4,5 en moyenne, contre \u2212929,0 pour une garde contre."}, "reason_code": {"code": "bid_made", "params": {"kind": "bid", "best": "prise", "other": "garde_contre", "a": 4.5, "b": -929.0, "c": 0.333}}, "index": 2, "hand": ["T1", "T2", "T4", "T8", "T16", "T18", "S1", "S10", "SJ", "H1", "H4", "H8", "HK", "D3", "D5", "DJ", "DQ", "C2"]}, {"where": "chelem", "seat": 0, "kind": "chelem", "played": false, "best": false, "loss": 0.0, "se": 0.0, "close": false, "values": {"false": -1035.0, "true": -1671.0}, "options": [{"action": false, "value": -1035.0, "se": 65.8, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": true, "value": -1671.0, "se": 86.3, "diff_se": 29.4, "close": false, "worlds": 6}], "reason": "Announced, the chelem is made in 0\u00a0% of the deals that could be: not announcing the chelem scores \u22121035.0 on average, announcing the chelem \u22121671.0.", "reasons": {"en": "Announced, the chelem is made in 0\u00a0% of the deals that could be: not announcing the chelem scores \u22121035.0 on average, announcing the chelem \u22121671.0.", "zh": "\u82e5\u5ba3\u5e03\uff0c\u5927\u6ee1\u8d2f\u5728 0% \u7684\u53ef\u80fd\u724c\u5c40\u4e2d\u5b8c\u6210\uff1a\u4e0d\u5ba3\u5e03\u5927\u6ee1\u8d2f\u5e73\u5747\u5f97\u5206 \u22121035.0\uff0c\u5ba3\u5e03\u5927\u6ee1\u8d2f\u4e3a \u22121671.0\u3002", "fr": "Annonc\u00e9, le chelem est r\u00e9ussi dans 0\u00a0% des donnes possibles\u00a0: ne pas annoncer le chelem rapporte \u22121035,0 en moyenne, annoncer le chelem \u22121671,0."}, "reason_code": {"code": "chelem", "params": {"kind": "chelem", "best": false, "other": true, "a": -1035.0, "b": -1671.0, "c": 0.0}}, "index": 4, "hand": ["T1", "T2", "T4", "T8", "T16", "T18", "S1", "S10", "SJ", "H1", "H4", "H8", "HK", "D3", "D5", "DJ", "DQ", "C2"]}, {"where": "play[6]", "seat": 0, "kind": "play", "played": "S1", "best": "S1", "loss": 0.0, "se": 0.0, "close": false, "values": {"S1": -993.0, "SJ": -993.0, "S10": -999.0}, "options": [{"action": "S1", "value": -993.0, "se": 43.5, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "SJ", "value": -993.0, "se": 29.2, "diff_se": 24.1, "close": true, "worlds": 6}, {"action": "S10", "value": -999.0, "se": 29.7, "diff_se": 21.6, "close": true, "worlds": 6}], "reason": "The coach cannot tell the 1 of spades, the jack of spades and the 10 of spades apart on the 6 deals it tried: gaps of up to 6 points are within the noise, \u00b148.3 points.", "reasons": {"en": "The coach cannot tell the 1 of spades, the jack of spades and the 10 of spades apart on the 6 deals it tried: gaps of up to 6 points are within the noise, \u00b148.3 points.", "zh": "\u5728\u8bd5\u8fc7\u7684 6 \u79cd\u53ef\u80fd\u724c\u5c40\u4e2d\uff0c\u6559\u7ec3\u5206\u4e0d\u51fa\u9ed1\u68431\u3001\u9ed1\u6843J \u548c\u9ed1\u684310 \u7684\u9ad8\u4e0b\uff1a\u76f8\u5dee\u6700\u591a 6 \u5206\uff0c\u8fd8\u5728\u8bef\u5dee \u00b148.3 \u5206\u4e4b\u5185\u3002", "fr": "Sur les 6 donnes essay\u00e9es, l''entra\u00eeneur ne peut pas d\u00e9partager le 1 de pique, le valet de pique et le 10 de pique\u00a0: jusqu''\u00e0 6 points d''\u00e9cart, dans la marge d''erreur (\u00b148,3 points)."}, "reason_code": {"code": "unclear", "params": {"kind": "play", "best": "S1", "others": ["SJ", "S10"], "more": 0, "gap": 6.0, "noise": 48.3, "worlds": 6}}, "trick": 1, "index": 11, "hand": ["T1", "T2", "T4", "T8", "T16", "T18", "S1", "S10", "SJ", "H1", "H4", "H8", "HK", "D3", "D5", "DJ", "DQ"]}, {"where": "play[11]", "seat": 0, "kind": "play", "played": "S10", "best": "S10", "loss": 0.0, "se": 0.0, "close": false, "values": {"S10": -945.0, "SJ": -945.0}, "options": [{"action": "S10", "value": -945.0, "se": 27.4, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "SJ", "value": -945.0, "se": 27.4, "diff_se": 0.0, "close": true, "worlds": 6}], "reason": "The 10 of spades and the jack of spades are about equal here: within 0.1 points.", "reasons": {"en": "The 10 of spades and the jack of spades are about equal here: within 0.1 points.", "zh": "\u9ed1\u684310 \u548c\u9ed1\u6843J \u5728\u8fd9\u91cc\u5dee\u4e0d\u591a\uff1a\u76f8\u5dee\u5728 0.1 \u5206\u4ee5\u5185\u3002", "fr": "Le 10 de pique et le valet de pique se valent ici\u00a0: \u00e0 0,1 point pr\u00e8s."}, "reason_code": {"code": "close", "params": {"kind": "play", "best": "S10", "others": ["SJ"], "more": 0, "gap": 0.0}}, "trick": 2, "index": 16, "hand": ["T1", "T2", "T4", "T8", "T16", "T18", "S10", "SJ", "H1", "H4", "H8", "HK", "D3", "D5", "DJ", "DQ"]}, {"where": "play[15]", "seat": 0, "kind": "play", "played": "T18", "best": "T8", "loss": 183.0, "se": 74.4, "close": false, "values": {"T8": -972.0, "T16": -1119.0, "T18": -1155.0}, "options": [{"action": "T8", "value": -972.0, "se": 58.0, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "T16", "value": -1119.0, "se": 32.0, "diff_se": 84.9, "close": true, "worlds": 6}, {"action": "T18", "value": -1155.0, "se": 30.3, "diff_se": 74.4, "close": false, "worlds": 6}], "reason": "With trump 18 your Petit is captured in 83\u00a0% of the deals that could be; with trump 8 in 50\u00a0%.", "reasons": {"en": "With trump 18 your Petit is captured in 83\u00a0% of the deals that could be; with trump 8 in 50\u00a0%.", "zh": "\u51fa\u5c06\u724c 18\uff0c\u4f60\u7684 Petit\uff08\u5c0f\u5c06\uff09\u5728 83% \u7684\u53ef\u80fd\u724c\u5c40\u4e2d\u88ab\u5403\u6389\uff1b\u51fa\u5c06\u724c 8 \u53ea\u6709 50%\u3002", "fr": "Avec l''atout 18, votre petit est pris dans 83\u00a0% des donnes possibles\u202f; avec l''atout 8, dans 50\u00a0%."}, "reason_code": {"code": "petit_lost", "params": {"kind": "play", "best": "T8", "other": "T18", "a": 0.5, "b": 0.833}}, "trick": 3, "index": 20, "hand": ["T1", "T2", "T4", "T8", "T16", "T18", "SJ", "H1", "H4", "H8", "HK", "D3", "D5", "DJ", "DQ"]}, {"where": "play[16]", "seat": 0, "kind": "play", "played": "T8", "best": "T1", "loss": 36.0, "se": 11.4, "close": false, "values": {"T1": -1173.0, "T4": -1209.0, "T8": -1209.0, "SJ": -1224.0, "HK": -1224.0, "D3": -1224.0, "D5": -1224.0, "DJ": -1224.0, "T2": -1236.0, "T16": -1236.0, "H1": -1242.0, "H4": -1242.0, "H8": -1242.0, "DQ": -1245.0}, "options": [{"action": "T1", "value": -1173.0, "se": 30.3, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "T4", "value": -1209.0, "se": 20.5, "diff_se": 11.4, "close": false, "worlds": 6}, {"action": "T8", "value": -1209.0, "se": 20.5, "diff_se": 11.4, "close": false, "worlds": 6}, {"action": "SJ", "value": -1224.0, "se": 16.8, "diff_se": 25.6, "close": true, "worlds": 6}, {"action": "HK", "value": -1224.0, "se": 8.0, "diff_se": 27.3, "close": true, "worlds": 6}, {"action": "D3", "value": -1224.0, "se": 27.1, "diff_se": 21.5, "close": false, "worlds": 6}, {"action": "D5", "value": -1224.0, "se": 27.1, "diff_se": 21.5, "close": false, "worlds": 6}, {"action": "DJ", "value": -1224.0, "se": 27.9, "diff_se": 3.0, "close": false, "worlds": 6}, {"action": "T2", "value": -1236.0, "se": 12.0, "diff_se": 21.7, "close": false, "worlds": 6}, {"action": "T16", "value": -1236.0, "se": 12.0, "diff_se": 21.7, "close": false, "worlds": 6}, {"action": "H1", "value": -1242.0, "se": 12.3, "diff_se": 22.0, "close": false, "worlds": 6}, {"action": "H4", "value": -1242.0, "se": 12.3, "diff_se": 22.0, "close": false, "worlds": 6}, {"action": "H8", "value": -1242.0, "se": 12.3, "diff_se": 22.0, "close": false, "worlds": 6}, {"action": "DQ", "value": -1245.0, "se": 26.0, "diff_se": 14.7, "close": false, "worlds": 6}], "reason": "Card points of the deal: your side ends with 15.8 on average with the Petit, 13.8 with trump 8.", "reasons": {"en": "Card points of the deal: your side ends with 15.8 on average with the Petit, 13.8 with trump 8.", "zh": "\u8fd9\u4e00\u624b\u7684\u724c\u5206\uff1a\u51fa Petit\uff08\u5c06\u724c 1\uff09\uff0c\u4f60\u65b9\u5e73\u5747\u62ff\u5230 15.8 \u5206\uff1b\u51fa\u5c06\u724c 8 \u4e3a 13.8 \u5206\u3002", "fr": "Points de cartes de la donne\u00a0: votre camp finit avec 15,8 en moyenne avec le petit, 13,8 avec l''atout 8."}, "reason_code": {"code": "points", "params": {"kind": "play", "best": "T1", "other": "T8", "a": 15.75, "b": 13.75}}, "trick": 4, "index": 21, "hand": ["T1", "T2", "T4", "T8", "T16", "SJ", "H1", "H4", "H8", "HK", "D3", "D5", "DJ", "DQ"]}, {"where": "play[21]", "seat": 0, "kind": "play", "played": "DJ", "best": "D3", "loss": 3.0, "se": 11.8, "close": true, "values": {"D3": -1173.0, "D5": -1173.0, "DJ": -1176.0, "DQ": -1212.0}, "options": [{"action": "D3", "value": -1173.0, "se": 20.5, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "D5", "value": -1173.0, "se": 20.5, "diff_se": 0.0, "close": true, "worlds": 6}, {"action": "DJ", "value": -1176.0, "se": 14.4, "diff_se": 11.8, "close": true, "worlds": 6}, {"action": "DQ", "value": -1212.0, "se": 14.4, "diff_se": 11.8, "close": false, "worlds": 6}], "reason": "The coach cannot tell the 3 of diamonds and the jack of diamonds apart on the 6 deals it tried: 3 points between them is within the noise, \u00b123.5 points.", "reasons": {"en": "The coach cannot tell the 3 of diamonds and the jack of diamonds apart on the 6 deals it tried: 3 points between them is within the noise, \u00b123.5 points.", "zh": "\u5728\u8bd5\u8fc7\u7684 6 \u79cd\u53ef\u80fd\u724c\u5c40\u4e2d\uff0c\u6559\u7ec3\u5206\u4e0d\u51fa\u65b9\u57573 \u548c\u65b9\u5757J \u7684\u9ad8\u4e0b\uff1a\u76f8\u5dee 3 \u5206\uff0c\u8fd8\u5728\u8bef\u5dee \u00b123.5 \u5206\u4e4b\u5185\u3002", "fr": "Sur les 6 donnes essay\u00e9es, l''entra\u00eeneur ne peut pas d\u00e9partager le 3 de carreau et le valet de carreau\u00a0: 3 points d''\u00e9cart, dans la marge d''erreur (\u00b123,5 points)."}, "reason_code": {"code": "unclear", "params": {"kind": "play", "best": "D3", "others": ["DJ"], "more": 0, "gap": 3.0, "noise": 23.5, "worlds": 6}}, "trick": 5, "index": 26, "hand": ["T1", "T2", "T4", "T16", "SJ", "H1", "H4", "H8", "HK", "D3", "D5", "DJ", "DQ"]}, {"where": "play[25]", "seat": 0, "kind": "play", "played": "H1", "best": "HK", "loss": 18.0, "se": 18.0, "close": true, "values": {"HK": -1338.0, "H1": -1356.0, "H4": -1356.0, "H8": -1356.0}, "options": [{"action": "HK", "value": -1338.0, "se": 42.0, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "H1", "value": -1356.0, "se": 31.7, "diff_se": 18.0, "close": true, "worlds": 6}, {"action": "H4", "value": -1356.0, "se": 31.7, "diff_se": 18.0, "close": true, "worlds": 6}, {"action": "H8", "value": -1356.0, "se": 31.7, "diff_se": 18.0, "close": true, "worlds": 6}], "reason": "The coach cannot tell the king of hearts and the 1 of hearts apart on the 6 deals it tried: 18 points between them is within the noise, \u00b136 points.", "reasons": {"en": "The coach cannot tell the king of hearts and the 1 of hearts apart on the 6 deals it tried: 18 points between them is within the noise, \u00b136 points.", "zh": "\u5728\u8bd5\u8fc7\u7684 6 \u79cd\u53ef\u80fd\u724c\u5c40\u4e2d\uff0c\u6559\u7ec3\u5206\u4e0d\u51fa\u7ea2\u5fc3K \u548c\u7ea2\u5fc31 \u7684\u9ad8\u4e0b\uff1a\u76f8\u5dee 18 \u5206\uff0c\u8fd8\u5728\u8bef\u5dee \u00b136 \u5206\u4e4b\u5185\u3002", "fr": "Sur les 6 donnes essay\u00e9es, l''entra\u00eeneur ne peut pas d\u00e9partager le roi de c\u0153ur et le 1 de c\u0153ur\u00a0: 18 points d''\u00e9cart, dans la marge d''erreur (\u00b136 points)."}, "reason_code": {"code": "unclear", "params": {"kind": "play", "best": "HK", "others": ["H1"], "more": 0, "gap": 18.0, "noise": 36.0, "worlds": 6}}, "trick": 6, "index": 30, "hand": ["T1", "T2", "T4", "T16", "SJ", "H1", "H4", "H8", "HK", "D3", "D5", "DQ"]}, {"where": "play[30]", "seat": 0, "kind": "play", "played": "D5", "best": "DQ", "loss": 15.0, "se": 36.1, "close": true, "values": {"DQ": -1224.0, "D3": -1239.0, "D5": -1239.0}, "options": [{"action": "DQ", "value": -1224.0, "se": 15.4, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "D3", "value": -1239.0, "se": 21.5, "diff_se": 36.1, "close": true, "worlds": 6}, {"action": "D5", "value": -1239.0, "se": 21.5, "diff_se": 36.1, "close": true, "worlds": 6}], "reason": "The coach cannot tell the queen of diamonds and the 5 of diamonds apart on the 6 deals it tried: 15 points between them is within the noise, \u00b172.2 points.", "reasons": {"en": "The coach cannot tell the queen of diamonds and the 5 of diamonds apart on the 6 deals it tried: 15 points between them is within the noise, \u00b172.2 points.", "zh": "\u5728\u8bd5\u8fc7\u7684 6 \u79cd\u53ef\u80fd\u724c\u5c40\u4e2d\uff0c\u6559\u7ec3\u5206\u4e0d\u51fa\u65b9\u5757Q \u548c\u65b9\u57575 \u7684\u9ad8\u4e0b\uff1a\u76f8\u5dee 15 \u5206\uff0c\u8fd8\u5728\u8bef\u5dee \u00b172.2 \u5206\u4e4b\u5185\u3002", "fr": "Sur les 6 donnes essay\u00e9es, l''entra\u00eeneur ne peut pas d\u00e9partager la dame de carreau et le 5 de carreau\u00a0: 15 points d''\u00e9cart, dans la marge d''erreur (\u00b172,2 points)."}, "reason_code": {"code": "unclear", "params": {"kind": "play", "best": "DQ", "others": ["D5"], "more": 0, "gap": 15.0, "noise": 72.2, "worlds": 6}}, "trick": 7, "index": 35, "hand": ["T1", "T2", "T4", "T16", "SJ", "H4", "H8", "HK", "D3", "D5", "DQ"]}, {"where": "play[36]", "seat": 0, "kind": "play", "played": "HK", "best": "H4", "loss": 36.0, "se": 44.3, "close": true, "values": {"H4": -1146.0, "H8": -1146.0, "HK": -1182.0, "D3": -1200.0, "DQ": -1215.0, "SJ": -1239.0, "T1": -1251.0, "T2": -1254.0}, "options": [{"action": "H4", "value": -1146.0, "se": 51.9, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "H8", "value": -1146.0, "se": 51.9, "diff_se": 0.0, "close": true, "worlds": 6}, {"action": "HK", "value": -1182.0, "se": 19.5, "diff_se": 44.3, "close": true, "worlds": 6}, {"action": "D3", "value": -1200.0, "se": 68.4, "diff_se": 67.8, "close": true, "worlds": 6}, {"action": "DQ", "value": -1215.0, "se": 66.3, "diff_se": 65.5, "close": true, "worlds": 6}, {"action": "SJ", "value": -1239.0, "se": 52.0, "diff_se": 83.7, "close": true, "worlds": 6}, {"action": "T1", "value": -1251.0, "se": 55.5, "diff_se": 88.4, "close": true, "worlds": 6}, {"action": "T2", "value": -1254.0, "se": 45.9, "diff_se": 86.4, "close": true, "worlds": 6}], "reason": "The coach cannot tell the 4 of hearts and the king of hearts apart on the 6 deals it tried: 36 points between them is within the noise, \u00b188.7 points.", "reasons": {"en": "The coach cannot tell the 4 of hearts and the king of hearts apart on the 6 deals it tried: 36 points between them is within the noise, \u00b188.7 points.", "zh": "\u5728\u8bd5\u8fc7\u7684 6 \u79cd\u53ef\u80fd\u724c\u5c40\u4e2d\uff0c\u6559\u7ec3\u5206\u4e0d\u51fa\u7ea2\u5fc34 \u548c\u7ea2\u5fc3K \u7684\u9ad8\u4e0b\uff1a\u76f8\u5dee 36 \u5206\uff0c\u8fd8\u5728\u8bef\u5dee \u00b188.7 \u5206\u4e4b\u5185\u3002", "fr": "Sur les 6 donnes essay\u00e9es, l''entra\u00eeneur ne peut pas d\u00e9partager le 4 de c\u0153ur et le roi de c\u0153ur\u00a0: 36 points d''\u00e9cart, dans la marge d''erreur (\u00b188,7 points)."}, "reason_code": {"code": "unclear", "params": {"kind": "play", "best": "H4", "others": ["HK"], "more": 0, "gap": 36.0, "noise": 88.7, "worlds": 6}}, "trick": 9, "index": 41, "hand": ["T1", "T2", "T4", "SJ", "H4", "H8", "HK", "D3", "DQ"]}, {"where": "play[40]", "seat": 0, "kind": "play", "played": "T4", "best": "T4", "loss": 0.0, "se": 0.0, "close": false, "values": {"T4": -1065.0, "H4": -1113.0, "D3": -1185.0, "DQ": -1185.0, "T1": -1200.0, "SJ": -1281.0}, "options": [{"action": "T4", "value": -1065.0, "se": 44.7, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "H4", "value": -1113.0, "se": 38.4, "diff_se": 30.4, "close": true, "worlds": 6}, {"action": "D3", "value": -1185.0, "se": 45.6, "diff_se": 40.2, "close": false, "worlds": 6}, {"action": "DQ", "value": -1185.0, "se": 45.6, "diff_se": 40.2, "close": false, "worlds": 6}, {"action": "T1", "value": -1200.0, "se": 20.6, "diff_se": 27.0, "close": false, "worlds": 6}, {"action": "SJ", "value": -1281.0, "se": 53.7, "diff_se": 72.4, "close": false, "worlds": 6}], "reason": "The coach cannot tell trump 4 and the 4 of hearts apart on the 6 deals it tried: 48 points between them is within the noise, \u00b160.7 points.", "reasons": {"en": "The coach cannot tell trump 4 and the 4 of hearts apart on the 6 deals it tried: 48 points between them is within the noise, \u00b160.7 points.", "zh": "\u5728\u8bd5\u8fc7\u7684 6 \u79cd\u53ef\u80fd\u724c\u5c40\u4e2d\uff0c\u6559\u7ec3\u5206\u4e0d\u51fa\u5c06\u724c 4 \u548c\u7ea2\u5fc34 \u7684\u9ad8\u4e0b\uff1a\u76f8\u5dee 48 \u5206\uff0c\u8fd8\u5728\u8bef\u5dee \u00b160.7 \u5206\u4e4b\u5185\u3002", "fr": "Sur les 6 donnes essay\u00e9es, l''entra\u00eeneur ne peut pas d\u00e9partager l''atout 4 et le 4 de c\u0153ur\u00a0: 48 points d''\u00e9cart, dans la marge d''erreur (\u00b160,7 points)."}, "reason_code": {"code": "unclear", "params": {"kind": "play", "best": "T4", "others": ["H4"], "more": 0, "gap": 48.0, "noise": 60.7, "worlds": 6}}, "trick": 10, "index": 45, "hand": ["T1", "T2", "T4", "SJ", "H4", "H8", "D3", "DQ"]}, {"where": "play[49]", "seat": 0, "kind": "play", "played": "H8", "best": "H8", "loss": 0.0, "se": 0.0, "close": false, "values": {"H8": -1080.0}, "options": [{"action": "H8", "value": -1080.0, "se": 67.7, "diff_se": 0.0, "close": false, "worlds": 6}], "reason": "The 8 of hearts: the best option found, \u22121080.0 expected.", "reasons": {"en": "The 8 of hearts: the best option found, \u22121080.0 expected.", "zh": "\u7ea2\u5fc38\uff1a\u627e\u5230\u7684\u6700\u4f73\u9009\u62e9\uff0c\u671f\u671b\u5f97\u5206 \u22121080.0\u3002", "fr": "Le 8 de c\u0153ur\u00a0: le meilleur choix trouv\u00e9, \u22121080,0 en moyenne."}, "reason_code": {"code": "alone", "params": {"kind": "play", "best": "H8", "a": -1080.0}}, "trick": 12, "index": 54, "hand": ["T1", "T2", "H4", "H8", "D3", "DQ"]}, {"where": "play[54]", "seat": 0, "kind": "play", "played": "DQ", "best": "DQ", "loss": 0.0, "se": 0.0, "close": false, "values": {"DQ": -1146.0, "D3": -1203.0}, "options": [{"action": "DQ", "value": -1146.0, "se": 6.0, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "D3", "value": -1203.0, "se": 15.0, "diff_se": 21.0, "close": false, "worlds": 6}], "reason": "Points of this trick: with the queen of diamonds your side takes 7 card points on average, with the 3 of diamonds \u22126.", "reasons": {"en": "Points of this trick: with the queen of diamonds your side takes 7 card points on average, with the 3 of diamonds \u22126.", "zh": "\u8fd9\u4e00\u58a9\u7684\u724c\u5206\uff1a\u51fa\u65b9\u5757Q\uff0c\u4f60\u65b9\u5e73\u5747\u5f97 7 \u5206\uff1b\u51fa\u65b9\u57573 \u4e3a \u22126 \u5206\u3002", "fr": "Points de ce pli\u00a0: avec la dame de carreau, votre camp y prend 7 points de cartes en moyenne, avec le 3 de carreau \u22126."}, "reason_code": {"code": "trick_points", "params": {"kind": "play", "best": "DQ", "other": "D3", "a": 7.0, "b": -6.0}}, "trick": 13, "index": 59, "hand": ["T1", "T2", "H4", "D3", "DQ"]}, {"where": "play[56]", "seat": 0, "kind": "play", "played": "T1", "best": "D3", "loss": 126.0, "se": 45.8, "close": false, "values": {"D3": -1020.0, "H4": -1119.0, "T1": -1146.0, "T2": -1149.0}, "options": [{"action": "D3", "value": -1020.0, "se": 41.7, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "H4", "value": -1119.0, "se": 33.0, "diff_se": 67.6, "close": true, "worlds": 6}, {"action": "T1", "value": -1146.0, "se": 6.0, "diff_se": 45.8, "close": false, "worlds": 6}, {"action": "T2", "value": -1149.0, "se": 48.8, "diff_se": 65.5, "close": true, "worlds": 6}], "reason": "With the Petit your Petit is captured in 100\u00a0% of the deals that could be; with the 3 of diamonds in 33\u00a0%.", "reasons": {"en": "With the Petit your Petit is captured in 100\u00a0% of the deals that could be; with the 3 of diamonds in 33\u00a0%.", "zh": "\u51fa Petit\uff08\u5c06\u724c 1\uff09\uff0c\u4f60\u7684 Petit\uff08\u5c0f\u5c06\uff09\u5728 100% \u7684\u53ef\u80fd\u724c\u5c40\u4e2d\u88ab\u5403\u6389\uff1b\u51fa\u65b9\u57573 \u53ea\u6709 33%\u3002", "fr": "Avec le petit, votre petit est pris dans 100\u00a0% des donnes possibles\u202f; avec le 3 de carreau, dans 33\u00a0%."}, "reason_code": {"code": "petit_lost", "params": {"kind": "play", "best": "D3", "other": "T1", "a": 0.333, "b": 1.0}}, "trick": 14, "index": 61, "hand": ["T1", "T2", "H4", "D3"]}], "total_loss": {"0": 1278.5}}','2026-12-06 07:14:13.531228');
CREATE TABLE hints (
	match_id VARCHAR(32) NOT NULL, 
	seq INTEGER NOT NULL, 
	deal INTEGER NOT NULL, 
	hint JSON NOT NULL, 
	created DATETIME NOT NULL, 
	position VARCHAR(32), 
	PRIMARY KEY (match_id, seq), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
);
INSERT INTO "hints" VALUES('15cc0350067d',2,1,'{"kind": "bid", "best": "pass", "action": "pass", "options": [{"action": "pass", "value": 0.0, "se": 0.0, "diff_se": 0.0, "close": false, "worlds": 6}, {"action": "prise", "value": -34.0, "se": 33.1, "diff_se": 33.1, "close": true, "worlds": 6}, {"action": "garde", "value": -108.0, "se": 66.2, "diff_se": 66.2, "close": true, "worlds": 6}, {"action": "garde_sans", "value": -534.0, "se": 67.6, "diff_se": 67.6, "close": false, "worlds": 6}, {"action": "garde_contre", "value": -992.0, "se": 86.3, "diff_se": 86.3, "close": false, "worlds": 6}], "reason": {"en": "The coach cannot tell passing, Prise and Garde apart on the 6 deals it tried: gaps of up to 108 points are within the noise, \u00b1132.4 points.", "zh": "\u5728\u8bd5\u8fc7\u7684 6 \u79cd\u53ef\u80fd\u724c\u5c40\u4e2d\uff0c\u6559\u7ec3\u5206\u4e0d\u51fa\u4e0d\u53eb\u3001Prise\uff08\u5c0f\u53eb\uff09\u548c Garde\uff08\u5927\u53eb\uff09\u7684\u9ad8\u4e0b\uff1a\u76f8\u5dee\u6700\u591a 108 \u5206\uff0c\u8fd8\u5728\u8bef\u5dee \u00b1132.4 \u5206\u4e4b\u5185\u3002", "fr": "Sur les 6 donnes essay\u00e9es, l''entra\u00eeneur ne peut pas d\u00e9partager passer, une prise et une garde\u00a0: jusqu''\u00e0 108 points d''\u00e9cart, dans la marge d''erreur (\u00b1132,4 points)."}, "reason_code": {"code": "unclear", "params": {"kind": "bid", "best": "pass", "others": ["prise", "garde"], "more": 0, "gap": 108.0, "noise": 132.4, "worlds": 6}}, "worlds": 6}','2026-12-06 07:13:44.988143','1099b7e825b433ee3aada6194472cbbf');
CREATE TABLE matches (
	id VARCHAR(32) NOT NULL, 
	owner VARCHAR(64) NOT NULL, 
	length INTEGER NOT NULL, 
	level VARCHAR(16) NOT NULL, 
	seed BIGINT NOT NULL, 
	first_dealer INTEGER, 
	first_deal_seed BIGINT, 
	created DATETIME NOT NULL, 
	finished DATETIME, 
	totals JSON, 
	learning BOOLEAN DEFAULT 0 NOT NULL, 
	shared BOOLEAN DEFAULT 0 NOT NULL, 
	turn_time INTEGER, 
	PRIMARY KEY (id), 
	FOREIGN KEY(owner) REFERENCES players (id)
);
INSERT INTO "matches" VALUES('fe5c5f8846ef','gaHSLBlQrAy-bTKMUWI6AVoZ',2,'club',1,NULL,NULL,'2026-12-06 07:13:40.372786','2026-12-06 07:13:42.440910','[-378, 222, 78, 78]',0,0,NULL);
INSERT INTO "matches" VALUES('a3afc82e7786','gaHSLBlQrAy-bTKMUWI6AVoZ',2,'random',2,NULL,NULL,'2026-12-06 07:13:42.446843',NULL,NULL,0,0,NULL);
INSERT INTO "matches" VALUES('15cc0350067d','gaHSLBlQrAy-bTKMUWI6AVoZ',2,'novice',3,NULL,NULL,'2026-12-06 07:13:43.884882',NULL,NULL,1,0,NULL);
INSERT INTO "matches" VALUES('e518774a567d','gaHSLBlQrAy-bTKMUWI6AVoZ',2,'random',4,NULL,NULL,'2026-12-06 07:14:13.580327',NULL,NULL,0,1,NULL);
CREATE TABLE players (
	id VARCHAR(64) NOT NULL, 
	created DATETIME NOT NULL, 
	name VARCHAR(24), 
	PRIMARY KEY (id)
);
INSERT INTO "players" VALUES('gaHSLBlQrAy-bTKMUWI6AVoZ','2026-12-06 07:13:40.372330',NULL);
INSERT INTO "players" VALUES('5dZDJyfjJH-5caR2e6U7OgYn','2026-12-06 07:14:13.616734',NULL);
CREATE TABLE seats (
	match_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	player VARCHAR(64), 
	computer BOOLEAN NOT NULL, 
	invite VARCHAR(64), 
	joined DATETIME, 
	PRIMARY KEY (match_id, seat), 
	UNIQUE (match_id, player), 
	FOREIGN KEY(match_id) REFERENCES matches (id), 
	FOREIGN KEY(player) REFERENCES players (id), 
	UNIQUE (invite)
);
INSERT INTO "seats" VALUES('e518774a567d',0,'gaHSLBlQrAy-bTKMUWI6AVoZ',0,NULL,'2026-12-06 07:14:13.580868');
INSERT INTO "seats" VALUES('e518774a567d',1,'5dZDJyfjJH-5caR2e6U7OgYn',0,'f04bab4cf9edc53685fba4eb341deacbb7ce1ca227f06e67c5601861f8ca642d','2026-12-06 07:14:13.617654');
INSERT INTO "seats" VALUES('e518774a567d',2,NULL,1,NULL,NULL);
INSERT INTO "seats" VALUES('e518774a567d',3,NULL,1,NULL,NULL);
CREATE TABLE settings (
	name VARCHAR(32) NOT NULL, 
	value VARCHAR(128) NOT NULL, 
	created DATETIME NOT NULL, 
	PRIMARY KEY (name)
);
INSERT INTO "settings" VALUES('player-id-key','4446ba248e730a383a992b463cd3b6f0ef4b9e94d590037dcb1bb714c538bbfa','2026-12-06 07:13:40.185665');
CREATE INDEX ix_matches_owner ON matches (owner);
CREATE INDEX ix_seats_player ON seats (player);
COMMIT;
