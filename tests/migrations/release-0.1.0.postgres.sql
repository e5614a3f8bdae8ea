--
-- PostgreSQL database dump
--

\restrict 4fSFaT3N1LClruXqrD1vnIncf9X47HSjGWDHFLat4MExq2C244j3TmNSjeYigQK

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: class_entries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.class_entries (
    id integer NOT NULL,
    code character varying(8) NOT NULL,
    puzzle_seq integer NOT NULL,
    game_id character varying(32) NOT NULL,
    name character varying(24) NOT NULL,
    started_at double precision NOT NULL,
    solved_at double precision,
    seconds double precision,
    moves integer,
    hints integer,
    undos integer
);


--
-- Name: class_entries_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.class_entries_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: class_entries_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.class_entries_id_seq OWNED BY public.class_entries.id;


--
-- Name: class_presence; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.class_presence (
    sid character varying(64) NOT NULL,
    code character varying(8) NOT NULL,
    role character varying(8) NOT NULL,
    last_seen double precision NOT NULL
);


--
-- Name: class_rooms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.class_rooms (
    code character varying(8) NOT NULL,
    token_hash character varying(64) NOT NULL,
    created_at double precision NOT NULL,
    last_active double precision NOT NULL,
    settings text NOT NULL,
    gen integer NOT NULL,
    idx integer NOT NULL,
    playing boolean NOT NULL,
    speed double precision,
    state_at double precision NOT NULL,
    frontier integer NOT NULL,
    seq integer NOT NULL,
    puzzle text,
    puzzle_seq integer NOT NULL
);


--
-- Name: games; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.games (
    id character varying(32) NOT NULL,
    rows integer NOT NULL,
    cols integer NOT NULL,
    closed boolean NOT NULL,
    path text NOT NULL,
    returned boolean NOT NULL,
    undos integer NOT NULL,
    hints integer NOT NULL,
    started_at double precision,
    finished_at double precision,
    good_until integer NOT NULL,
    dead_from integer,
    dead text,
    created_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    version integer DEFAULT 1 NOT NULL
);


--
-- Name: scores; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.scores (
    id integer NOT NULL,
    game_id character varying(32) NOT NULL,
    name character varying(24) NOT NULL,
    rows integer NOT NULL,
    cols integer NOT NULL,
    closed boolean NOT NULL,
    seconds double precision NOT NULL,
    moves integer NOT NULL,
    hints integer NOT NULL,
    undos integer NOT NULL,
    created_at timestamp with time zone NOT NULL
);


--
-- Name: scores_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.scores_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: scores_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.scores_id_seq OWNED BY public.scores.id;


--
-- Name: class_entries id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.class_entries ALTER COLUMN id SET DEFAULT nextval('public.class_entries_id_seq'::regclass);


--
-- Name: scores id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores ALTER COLUMN id SET DEFAULT nextval('public.scores_id_seq'::regclass);


--
-- Data for Name: class_entries; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.class_entries VALUES (2, 'NNY944', 1, 'JfM5XZWxNteexrX1Er0AYQ', 'Wang', 1795385134.5403855, NULL, NULL, NULL, NULL, NULL);
INSERT INTO public.class_entries VALUES (1, 'NNY944', 1, 'qcCwkDshSRUyV4fwPuPFuw', 'Lin', 1795385134.5248818, 1795385134.6898878, 0.2, 24, 0, 0);


--
-- Data for Name: class_presence; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: class_rooms; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.class_rooms VALUES ('NNY944', 'c80162b7d543acb1f7e9eb2ae197b4ae394699e77c13950b343ed407eef56805', 1795385134.5086305, 1795385134.696752, '{"rows": 6, "cols": 6, "start": [0, 0], "algorithm": "seed", "closed": false, "pruning": false}', 2, 0, false, 10, 1795385134.51782, 0, 1, '{"rows": 5, "cols": 5, "closed": false, "start": [0, 0], "seq": 1}', 1);


--
-- Data for Name: games; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.games VALUES ('JoRWPV0CXOWq2hBTB_Fvdw', 6, 6, false, '[0, 8, 4, 17]', false, 1, 1, 1795385133.8394234, NULL, 4, NULL, NULL, '2026-11-22 22:05:33.823874+00', '2026-11-22 22:05:33.901483+00', 8);
INSERT INTO public.games VALUES ('QyBODDROcezfZLozFVz2pA', 8, 8, true, '[]', false, 0, 0, NULL, NULL, 0, NULL, NULL, '2026-11-22 22:05:33.907327+00', '2026-11-22 22:05:33.907332+00', 1);
INSERT INTO public.games VALUES ('qcCwkDshSRUyV4fwPuPFuw', 5, 5, false, '[0, 7, 4, 13, 6, 3, 14, 23, 16, 5, 2, 9, 18, 21, 10, 1, 8, 19, 12, 15, 22, 11, 20, 17, 24]', false, 0, 0, 1795385134.5248818, 1795385134.6898878, 25, NULL, NULL, '2026-11-22 22:05:34.528025+00', '2026-11-22 22:05:34.691787+00', 26);
INSERT INTO public.games VALUES ('ZG1DtKuDySUHHowvE-rqQQ', 5, 5, false, '[0, 7, 4, 13, 6, 3, 14, 23, 16, 5, 2, 9, 18, 21, 10, 1, 8, 19, 12, 15, 22, 11, 20, 17, 24]', false, 0, 0, 1795385134.0766203, 1795385134.2329662, 25, NULL, NULL, '2026-11-22 22:05:34.072848+00', '2026-11-22 22:05:34.234866+00', 26);
INSERT INTO public.games VALUES ('tjhFniCX0WFsZepglKVZzg', 6, 6, true, '[0, 8, 4, 17, 28, 32, 24, 20, 12, 1, 9, 5, 16, 29, 33, 25, 21, 34, 23, 10, 2, 6, 14, 3, 11, 22, 35, 27, 31, 18, 7, 15, 19, 30, 26, 13]', true, 0, 1, 1795385134.263408, 1795385134.49387, 36, NULL, NULL, '2026-11-22 22:05:34.256389+00', '2026-11-22 22:05:34.495945+00', 39);
INSERT INTO public.games VALUES ('JfM5XZWxNteexrX1Er0AYQ', 5, 5, false, '[0]', false, 0, 0, 1795385134.5403855, NULL, 1, NULL, NULL, '2026-11-22 22:05:34.543292+00', '2026-11-22 22:05:34.547491+00', 2);
INSERT INTO public.games VALUES ('2D9FVbKZ7vkHBxhQmXqPww', 5, 5, false, '[0, 11, 20, 17, 24, 13, 16, 23, 14, 3, 6, 15, 22, 19, 8, 1, 10, 21, 18, 9, 12, 5, 2]', false, 0, 0, 1795385133.9147084, NULL, 18, 19, '{"code": "stuck", "reason": "stuck: no legal move from c5", "params": {"square": "c5"}, "undo": 5, "exact": true}', '2026-11-22 22:05:33.91137+00', '2026-11-22 22:05:34.066372+00', 24);


--
-- Data for Name: scores; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.scores VALUES (1, 'ZG1DtKuDySUHHowvE-rqQQ', '小明', 5, 5, false, 0.2, 24, 0, 0, '2026-11-22 22:05:34.241339+00');
INSERT INTO public.scores VALUES (2, 'tjhFniCX0WFsZepglKVZzg', 'Ada', 6, 6, true, 0.2, 36, 1, 0, '2026-11-22 22:05:34.502418+00');


--
-- Name: class_entries_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.class_entries_id_seq', 2, true);


--
-- Name: scores_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.scores_id_seq', 2, true);


--
-- Name: class_entries class_entries_game_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.class_entries
    ADD CONSTRAINT class_entries_game_id_key UNIQUE (game_id);


--
-- Name: class_entries class_entries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.class_entries
    ADD CONSTRAINT class_entries_pkey PRIMARY KEY (id);


--
-- Name: class_presence class_presence_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.class_presence
    ADD CONSTRAINT class_presence_pkey PRIMARY KEY (sid);


--
-- Name: class_rooms class_rooms_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.class_rooms
    ADD CONSTRAINT class_rooms_pkey PRIMARY KEY (code);


--
-- Name: games games_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.games
    ADD CONSTRAINT games_pkey PRIMARY KEY (id);


--
-- Name: scores scores_game_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores
    ADD CONSTRAINT scores_game_id_key UNIQUE (game_id);


--
-- Name: scores scores_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores
    ADD CONSTRAINT scores_pkey PRIMARY KEY (id);


--
-- Name: ix_class_entries_code; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_class_entries_code ON public.class_entries USING btree (code);


--
-- Name: ix_class_presence_code; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_class_presence_code ON public.class_presence USING btree (code);


--
-- Name: ix_class_rooms_last_active; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_class_rooms_last_active ON public.class_rooms USING btree (last_active);


--
-- Name: ix_scores_board; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_scores_board ON public.scores USING btree (rows, cols, closed, seconds);


--
-- Name: class_entries class_entries_code_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.class_entries
    ADD CONSTRAINT class_entries_code_fkey FOREIGN KEY (code) REFERENCES public.class_rooms(code) ON DELETE CASCADE;


--
-- Name: class_presence class_presence_code_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.class_presence
    ADD CONSTRAINT class_presence_code_fkey FOREIGN KEY (code) REFERENCES public.class_rooms(code) ON DELETE CASCADE;


--
-- Name: scores scores_game_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.scores
    ADD CONSTRAINT scores_game_id_fkey FOREIGN KEY (game_id) REFERENCES public.games(id);


--
-- PostgreSQL database dump complete
--

\unrestrict 4fSFaT3N1LClruXqrD1vnIncf9X47HSjGWDHFLat4MExq2C244j3TmNSjeYigQK

