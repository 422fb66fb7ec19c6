// style(file): an evaluation set's sentence templates, at least four phrasings per fact: data, not logic
package io.polyrag.eval;

import io.polyrag.eval.StoryWorld.Authorship;
import io.polyrag.eval.StoryWorld.Birth;
import io.polyrag.eval.StoryWorld.Build;
import io.polyrag.eval.StoryWorld.Command;
import io.polyrag.eval.StoryWorld.Founding;
import io.polyrag.eval.StoryWorld.Holding;
import io.polyrag.eval.StoryWorld.Museum;
import io.polyrag.eval.StoryWorld.Org;
import io.polyrag.eval.StoryWorld.Painting;
import io.polyrag.eval.StoryWorld.Person;
import io.polyrag.eval.StoryWorld.Port;
import io.polyrag.eval.StoryWorld.Pronoun;
import io.polyrag.eval.StoryWorld.Role;
import io.polyrag.eval.StoryWorld.Ship;
import io.polyrag.eval.StoryWorld.Voyage;
import io.polyrag.eval.StoryWorld.Wright;
import io.polyrag.eval.StoryWorld.Yard;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The documents of {@link StoryCorpus}: a profile of 3 to 6 sentences per entity, and a short note (a register, a
 * catalogue entry, a notice) for each relation the world states outside both ends' profiles.
 *
 * <p>A profile names its subject in full once, in its first sentence, and afterwards by an alias (a surname, a title
 * and surname, an abbreviation, a short form, a description) or by a pronoun; a fact sentence opens with the pronoun
 * more than half the time, so that the sentence a two-hop question needs rarely carries the name. Every fact has at
 * least four phrasings. The noise (years, quantities, centuries BC, a measurements table in a third of the ship
 * profiles, an inventory record in JSON in a few museum profiles) names nothing.
 *
 * <p>Templates use slots in braces: {@code {n}} the subject's full first mention, {@code {s}} the subject as a
 * sentence's subject, {@code {ss}} its possessive, {@code {o}} its object form, {@code {was}} the verb agreeing with
 * {@code {s}}, {@code {his}} the subject's possessive pronoun; other slots are filled by the caller.
 */
final class StoryProse {
    private static final List<String> CAPTAIN_INTROS = List.of("{n} ({b}–{d}) was a sea captain.",
            "{n} was a master mariner who lived from {b} to {d}.",
            "{n} ({b}–{d}) spent {his} working life at sea as a ship's master.",
            "{n}, who lived from {b} to {d}, was a merchant captain.");
    private static final List<String> PAINTER_INTROS = List.of("{n} ({b}–{d}) was a marine painter.",
            "{n} was a painter of ships and harbours who lived from {b} to {d}.",
            "{n} ({b}–{d}) painted the sea and the ships on it.",
            "{n}, who lived from {b} to {d}, was known as a painter of the coast.");
    private static final List<String> PATRON_INTROS = List.of("{n} ({b}–{d}) was {trade} and a patron of the arts.",
            "{n} was {trade} who lived from {b} to {d}.", "{n} ({b}–{d}) made a fortune as {trade}.",
            "{n}, who lived from {b} to {d}, was {trade} with money to give away.");
    private static final List<String> BORN = List.of("{s} {was} born in {port} in {y}.",
            "{s} came into the world at {port} in {y}.", "{s} {was} a native of {port}.",
            "{ss} birthplace was {port}.", "{port} was {ss} birthplace.");
    private static final List<String> COMMANDED = List.of("{s} took command of {ship} in {y}.",
            "{s} {was} given command of {ship} in {y}.", "{s} sailed as master of {ship} from {y}.",
            "In {y} {s} became master of {ship}.", "{ship} came under {ss} command in {y}.",
            "{s} {was} master of {ship} from {y}.");
    private static final List<String> FOUNDED_BY_SUBJECT = List.of("{s} founded {org} in {y}.",
            "{s} put up the money to found {org} in {y}.", "In {y} {s} established {org}.",
            "{s} {was} the founder of {org}, which opened in {y}.", "{org} was founded in {y} by {o}.");
    private static final List<String> COUSIN = List.of("{s} {was} a cousin of the sea captain {captain}.",
            "{ss} cousin was the captain {captain}.", "The captain {captain} was {ss} cousin.",
            "{s} and the captain {captain} were cousins.");
    private static final List<String> PAINTED_BY_SUBJECT = List.of("{s} painted {works}.",
            "{s} {was} the painter of {works}.", "{ss} brush produced {works}.", "From {ss} easel came {works}.",
            "{s} signed {works}.");
    private static final List<String> CAPTAIN_NOISE = List.of("{s} made some {n} crossings before retiring in {y}.",
            "{s} {was} shipwrecked once, in {w}, and lost some {n} tons of cargo.",
            "{ss} logbooks, some {n} volumes, are kept in a private archive.",
            "{s} {was} made a warden of the pilots' guild in {y}.");
    private static final List<String> PAINTER_NOISE = List.of("{s} exhibited some {n} pictures in {y}.",
            "{ss} studio was sold in {y} for {n} crowns.", "{s} trained for {k} years before {his} first exhibition.",
            "{ss} sketchbooks, some {n} of them, were lost in a fire in {y}.");
    private static final List<String> PATRON_NOISE = List.of("{ss} fortune was put at some {n} crowns in {y}.",
            "{s} gave some {n} crowns to the harbour hospital in {y}.", "{s} sat on the harbour board for {k} years.",
            "{ss} warehouses held some {n} tons of goods in {y}.");

    private static final List<String> SHIP_INTROS = List.of("{n} was {rig} of some {tons} tons.",
            "{n} was {rig} of {tons} tons burthen.", "{n}, {rig}, measured some {tons} tons.",
            "{n} was {atons}-ton {rigname}.");
    private static final List<String> BUILT = List.of("{s} {was} launched at {yard} in {y}.",
            "{s} came off the slips of {yard} in {y}.", "{s} {was} built by {yard} in {y}.",
            "{yard} built {o} in {y}.", "{s} took to the water at {yard} in {y}.");
    private static final List<String> HOME_PORT = List.of("{ss} home port was {port}.",
            "{s} {was} registered at {port}.", "{s} sailed out of {port}.", "{port} was {ss} home port.",
            "{s} hailed from {port}.");
    private static final List<String> FIGUREHEAD = List.of("{s} carried a figurehead of {fig}.",
            "{ss} figurehead was {fig}.", "{s} bore {fig} as {his} figurehead.",
            "A carved {figname} served as {ss} figurehead.");
    private static final List<String> SHIP_NOISE = List.of("{s} could stow some {n} barrels below decks.",
            "{s} {was} refitted in {y} at a cost of some {k} crowns.", "{s} {was} sheathed in copper in {y}.",
            "In {y} {s} lost {his} foremast in a squall.");

    private static final List<String> YARD_INTROS = List.of("{n} was a shipyard known for its {spec}.",
            "{n} was a yard that specialised in {spec}.", "{n} made its name building {spec}.",
            "{n} was a shipbuilding firm that turned out {spec}.");
    private static final List<String> YARD_LOCATED = List.of("{s} stood at {port}.",
            "{s} lay on the waterfront of {port}.", "{ss} slips were at {port}.", "{s} {was} located in {port}.",
            "{port} was home to {o}.");
    private static final List<String> YARD_FOUNDED = List.of("{s} {was} founded by {person} in {y}.",
            "{person} founded {o} in {y}.", "{s} owed its existence to {person}, who founded it in {y}.",
            "{s} {was} established in {y} by {person}.", "{s} opened in {y}, founded by {person}.");
    private static final List<String> WRIGHT = List.of("{ss} master shipwright was {person}.",
            "{person} served as master shipwright at {o}.", "{s} had {person} as {his} master shipwright.",
            "The master shipwright at {o} was {person}.");
    private static final List<String> YARD_NOISE = List.of("At its height {s} employed some {hands} hands.",
            "{ss} dry dock, dug in {y}, could take hulls of some {k} tons.",
            "{s} launched some {n} hulls in {his} first decade.",
            "A fire in {y} destroyed some {k} feet of seasoned timber at {o}.");

    private static final List<String> MUSEUM_INTROS = List.of("{n} is a museum of marine art.",
            "{n} is a gallery devoted to paintings of the sea.", "{n} houses a collection of sea paintings.",
            "{n} is a museum of maritime pictures and ship models.");
    private static final List<String> MUSEUM_LOCATED = List.of("{s} stands in {port}.", "{s} is located in {port}.",
            "{ss} building is in {port}.", "{s} occupies an old warehouse in {port}.", "{port} is home to {o}.");
    private static final List<String> MUSEUM_FOUNDED = List.of("{s} was founded by {person} in {y}.",
            "{person} founded {o} in {y}.", "{s} owes its existence to {person}, who opened it in {y}.",
            "{s} was opened in {y} by {person}.", "{s} first opened its doors in {y}, founded by {person}.");
    private static final List<String> MUSEUM_NOISE = List.of(
            "{ss} east wing stands on the ruin of {aord}-century BC temple.", "{s} has {rooms} rooms.",
            "Some {k} visitors came to {o} in {y}.", "{s} was enlarged in {y} at a cost of some {k} crowns.");

    private static final List<String> PAINTING_INTROS = List.of("{n} is {medium} of {theme}, dated {y}.",
            "{n} ({y}) is {medium} showing {theme}.", "{n}, {medium} from {y}, shows {theme}.",
            "{n} is {medium} of {y} that shows {theme}.");
    private static final List<String> DEPICTS = List.of("{s} shows {ship}.", "{s} depicts {ship}.",
            "{ship} is the vessel in {o}.", "{s} is a portrait of {ship}.", "The ship in {o} is {ship}.");
    private static final List<String> PAINTED_BY = List.of("{s} was painted by {person}.", "{person} painted {o}.",
            "{s} is the work of {person}.", "{s} came from the brush of {person}.", "{s} is signed by {person}.");
    private static final List<String> HELD = List.of("{s} hangs in {museum}.", "{s} is held by {museum}.",
            "{museum} holds {o}.", "{s} belongs to the collection of {museum}.",
            "{s} is in the collection of {museum}.");
    private static final List<String> PAINTING_NOISE = List.of("{s} measures {w} by {h} centimetres.",
            "{s} was cleaned in {y}.", "{s} was sold in {y} for some {k} crowns.",
            "{s} was lent for an exhibition in {y}.");

    private static final List<String> PORT_INTROS = List.of("{n} is a port in the province of {province}.",
            "{n} lies in the province of {province}.", "{n}, in the province of {province}, is a harbour town.",
            "{n} is a harbour town of {province}.");
    private static final List<String> WATER = List.of("{s} stands on {water}.", "{s} lies on {water}.",
            "{ss} quays face {water}.", "{s} opens onto {water}.", "{s} is a {kind} port on {water}.");
    private static final List<String> FEATURE = List.of("{s} has {feature}.", "{s} is known for {feature}.",
            "{s} boasts {feature}.", "{s} is famous for {feature}.");
    private static final List<String> PORT_NOISE = List.of("{ss} harbour wall goes back to the {ord} century BC.",
            "{s} had some {k} inhabitants in {y}.", "Some {n} ships called at {o} in {y}.",
            "{s} was granted a market charter in {y}.");

    private static final List<String> VOYAGE_INTROS = List.of("{n} was the voyage made by {ship} in {y}.",
            "{n} took {ship} to sea in {y}.", "In {y} {ship} made the voyage known as {n}.",
            "{n} is the name given to a voyage of {ship} in {y}.");
    private static final List<String> ROUTE = List.of("{s} went from {from} to {to}.",
            "{s} took the ship from {from} to {to}.", "{s} began at {from} and ended at {to}.",
            "{s} linked {from} with {to}.");
    private static final List<String> CARGO = List.of("{ss} cargo was {cargo}.", "On {o} the ship carried {cargo}.",
            "{short} was laden with {cargo}.", "{s} carried {cargo}.");
    private static final List<String> HAZARD = List.of("On the way, {tell}.", "Halfway out, {tell}.",
            "Before landfall, {tell}.", "Some days out, {tell}.");
    private static final List<String> VOYAGE_NOISE = List.of("{s} took some {days} days.",
            "Some {k} tons of {cargo} were landed at the end of {o}.", "{n} hands signed on for {o}.");

    /** A split-fact document's title and text. */
    private record NoteForm(String title, String text) {
    }

    private static final List<NoteForm> BUILD_NOTES = List.of(
            new NoteForm("Register of launches, {y}", "Register of launches, {y}: {ship}, built at {yard}."),
            new NoteForm("Launch book, {y}", "Entered in the launch book for {y}: {ship}, from the slips of {yard}."),
            new NoteForm("Harbour register, {y}", "New hull, {y}: {ship}. Builder: {yard}."),
            new NoteForm("Launches of {y}", "Launched in {y}: {ship}, a hull of {yard}."));
    private static final List<NoteForm> COMMAND_NOTES = List.of(
            new NoteForm("Shipping notice, {y}", "Shipping news, {y}: {ship} sails under {person}."),
            new NoteForm("The Harbour Gazette, {y}", "Notice: from {y} the master of {ship} is {person}."),
            new NoteForm("Masters' roll, {y}", "Appointed in {y}: {person}, to command {ship}."),
            new NoteForm("Shipping news, {y}", "{y}. {person} takes command of {ship}."));
    private static final List<NoteForm> BIRTH_NOTES = List.of(
            new NoteForm("Parish register, {y}", "Parish register of {port}, {y}: born, {person}."),
            new NoteForm("Register of births, {y}", "Born at {port} in {y}: {person}."),
            new NoteForm("Birth entry, {y}", "Birth entry, {y}: {person}, of {port}."),
            new NoteForm("Baptismal roll, {y}", "Baptismal roll of {port}: {person}, baptised {y}."));
    private static final List<NoteForm> FOUNDING_NOTES = List.of(
            new NoteForm("Deed of foundation, {y}", "Deed of {y}: {org} is founded by {person}."),
            new NoteForm("Public notice, {y}", "Public notice, {y}: {person} announces the founding of {org}."),
            new NoteForm("Register of companies, {y}", "{org}: founded {y}, founder {person}."),
            new NoteForm("From the Gazette, {y}",
                    "From the Gazette, {y}: {org} opens its doors, founded by {person}."));
    private static final List<NoteForm> WRIGHT_NOTES = List.of(
            new NoteForm("Appointment notice", "Appointment notice: {person}, master shipwright at {yard}."),
            new NoteForm("Yard notice", "Notice: {yard} names {person} its master shipwright."),
            new NoteForm("Staff roll", "Staff roll of {yard}: master shipwright, {person}."),
            new NoteForm("Shipwrights' guild notice", "{person} is appointed master shipwright of {yard}."));
    private static final List<NoteForm> HOLDING_NOTES = List.of(
            new NoteForm("Catalogue entry no. {no}", "Catalogue of {museum}, no. {no}: {art}, acquired {y}."),
            new NoteForm("Inventory no. {no}", "Inventory no. {no}. {art}. Held by {museum} since {y}."),
            new NoteForm("Catalogue entry {no}", "{museum}, catalogue entry {no}: {art} (acquired {y})."),
            new NoteForm("Accession {y}/{no}", "Accession {y}/{no}: {museum} acquires {art}."));
    private static final List<NoteForm> AUTHORSHIP_NOTES = List.of(
            new NoteForm("Attribution note", "Attribution note: {art} is by {person}."),
            new NoteForm("Auction notice, {y}", "Auction notice, {y}: {art}, signed {person}."),
            new NoteForm("Sale record, {y}", "Sale record, {y}: lot {no}, {art} by {person}."),
            new NoteForm("Expert's note", "Expert's note: the hand in {art} is that of {person}."));

    private static final Pattern SLOT = Pattern.compile("\\{([a-z]+)\\}");

    private final StoryWorld world;
    private final Random random;

    private StoryProse(StoryWorld world, Random random) {
        this.world = world;
        this.random = random;
    }

    /** Every profile, then every note, in a fixed order. */
    static List<BeirDataset.Doc> write(StoryWorld world, Random random) {
        return new StoryProse(world, random).all();
    }

    private List<BeirDataset.Doc> all() {
        List<BeirDataset.Doc> docs = new ArrayList<>();
        world.ports().forEach(p -> docs.add(port(p)));
        world.people().forEach(p -> docs.add(person(p)));
        world.ships().forEach(s -> docs.add(ship(s)));
        world.yards().forEach(y -> docs.add(yard(y)));
        world.museums().forEach(m -> docs.add(museum(m)));
        world.paintings().forEach(p -> docs.add(painting(p)));
        world.voyages().forEach(v -> docs.add(voyage(v)));
        Map<String, BeirDataset.Doc> notes = new LinkedHashMap<>();
        world.builds().stream().filter(b -> isNote(b.doc())).forEach(b -> notes.put(b.doc(), note(b)));
        world.commands().stream().filter(c -> isNote(c.doc())).forEach(c -> notes.put(c.doc(), note(c)));
        world.births().stream().filter(b -> isNote(b.doc())).forEach(b -> notes.put(b.doc(), note(b)));
        world.foundings().stream().filter(f -> isNote(f.doc())).forEach(f -> notes.put(f.doc(), note(f)));
        world.wrights().stream().filter(w -> isNote(w.doc())).forEach(w -> notes.put(w.doc(), note(w)));
        world.holdings().stream().filter(h -> isNote(h.doc())).forEach(h -> notes.put(h.doc(), note(h)));
        world.authorships().stream().filter(a -> isNote(a.doc())).forEach(a -> notes.put(a.doc(), note(a)));
        world.notes().forEach(n -> docs.add(notes.get(n.id())));
        return docs;
    }

    private static boolean isNote(String doc) {
        return doc.startsWith("note-");
    }

    private BeirDataset.Doc person(Person p) {
        String title = switch (p.role()) {
            case CAPTAIN -> "Captain ";
            case PAINTER -> "the painter ";
            case PATRON -> "Councillor ";
        };
        Page page = new Page(p.name(), List.of(p.surname(), title + p.surname()), p.pronoun());
        List<String> intros = switch (p.role()) {
            case CAPTAIN -> CAPTAIN_INTROS;
            case PAINTER -> PAINTER_INTROS;
            case PATRON -> PATRON_INTROS;
        };
        page.intro(intros, Map.of("b", year(p.born()), "d", year(p.died()), "trade",
                p.role() == Role.PATRON ? article(p.trade()) : ""));
        Birth birth = world.birthOf(p);
        if (birth.doc().equals(p.id())) {
            page.fact(BORN, Map.of("port", birth.port().name(), "y", year(p.born())));
        }
        for (Command c : world.commandsOf(p)) {
            if (c.doc().equals(p.id())) {
                page.fact(COMMANDED, Map.of("ship", ship(c.ship().name()), "y", year(c.year())));
            }
        }
        if (p.role() == Role.PAINTER) {
            painterFacts(page, p);
        }
        for (Founding f : world.foundingsBy(p)) {
            if (f.doc().equals(p.id())) {
                page.fact(FOUNDED_BY_SUBJECT, Map.of("org", f.org().name(), "y", year(f.org().founded())));
            }
        }
        personNoise(page, p, switch (p.role()) {
            case CAPTAIN -> CAPTAIN_NOISE;
            case PAINTER -> PAINTER_NOISE;
            case PATRON -> PATRON_NOISE;
        });
        return page.doc(p.id(), p.name());
    }

    /** A cousin, and the works whose authorship this page states, all in one sentence however many. */
    private void painterFacts(Page page, Person p) {
        world.cousinOf(p).ifPresent(c -> page.fact(COUSIN, Map.of("captain", c.name())));
        List<String> works = world.authorshipsBy(p).stream().filter(a -> a.doc().equals(p.id()))
                .map(a -> art(a.painting().title()) + " (" + a.painting().year() + ")").toList();
        if (!works.isEmpty()) {
            page.fact(PAINTED_BY_SUBJECT, Map.of("works", list(works)));
        }
    }

    /**
     * A person's noise in the order of a life, after the facts: a captain retires once, after the last command, and is
     * wrecked ({@code w}) before it; anyone else's years fall in the grown-up years. A patron's sums are a fortune's.
     */
    private void personNoise(Page page, Person p, List<String> templates) {
        int last = world.commandsOf(p).stream().mapToInt(Command::year).max().orElse(p.born() + 30);
        int retired = last + 5 + random.nextInt(Math.max(1, p.died() - last - 6));
        page.noise(templates, false, () -> {
            int grown = p.born() + 25 + random.nextInt(Math.max(1, p.died() - p.born() - 26));
            int wrecked = last - random.nextInt(Math.max(1, last - p.born() - 20));
            String n = p.role() == Role.PATRON ? count(1000, 90000) : count(10, 90);
            return Map.of("n", n, "k", count(5, 30), "y", year(p.role() == Role.CAPTAIN ? retired : grown),
                    "w", year(wrecked));
        });
    }

    private BeirDataset.Doc ship(Ship s) {
        Page page = new Page(ship(s.name()), List.of("the " + s.shortName(), "the ship", "the " + s.rig().name()),
                Pronoun.SHE);
        page.intro(SHIP_INTROS, Map.of("rig", article(s.rig().name()), "rigname", s.rig().name(), "tons",
                count(s.tons()), "atons", article(count(s.tons()))));
        Build build = world.buildOf(s);
        if (build.doc().equals(s.id())) {
            page.fact(BUILT, Map.of("yard", build.yard().name(), "y", year(s.built())));
        }
        page.fact(HOME_PORT, Map.of("port", s.home().name()));
        if (!s.figurehead().isEmpty()) {
            page.fact(FIGUREHEAD, Map.of("fig", article(s.figurehead()), "figname", s.figurehead()));
        }
        page.noise(SHIP_NOISE, () -> Map.of("n", count(40, 900), "k", count(200, 4000), "y",
                year(s.built() + 3 + random.nextInt(25))));
        if (s.table()) {
            page.appendix(String.format(Locale.ROOT,
                    "| tonnage | length | crew |\n|---|---|---|\n| %d tons | %d m | %d |", s.tons(), s.length(),
                    s.crew()));
        }
        return page.doc(s.id(), s.name());
    }

    private Page orgPage(Org o, String description) {
        boolean abbreviated = random.nextBoolean();
        List<String> aliases = new ArrayList<>(List.of(o.key(), description));
        if (abbreviated) {
            aliases.add(o.abbreviation());
        }
        return new Page(abbreviated ? o.name() + " (" + o.abbreviation() + ")" : o.name(), aliases, Pronoun.IT);
    }

    private BeirDataset.Doc yard(Yard y) {
        Page page = orgPage(y, random.nextBoolean() ? "the yard" : "the shipyard");
        page.intro(YARD_INTROS, Map.of("spec", y.speciality()));
        page.fact(YARD_LOCATED, Map.of("port", y.port().name()));
        founding(page, y, YARD_FOUNDED);
        Wright w = world.wrightOf(y);
        if (w.doc().equals(y.id())) {
            page.fact(WRIGHT, Map.of("person", w.wright().name()));
        }
        page.noise(YARD_NOISE, () -> Map.of("hands", count(y.hands()), "n", count(10, 120), "k", count(200, 3000),
                "y", year(y.founded() + 10 + random.nextInt(50))));
        return page.doc(y.id(), y.name());
    }

    private void founding(Page page, Org o, List<String> templates) {
        Founding f = world.foundingOf(o);
        if (f.doc().equals(o.id())) {
            page.fact(templates, Map.of("person", f.founder().name(), "y", year(o.founded())));
        }
    }

    private BeirDataset.Doc museum(Museum m) {
        Page page = orgPage(m, m.name().endsWith("Gallery") ? "the gallery" : "the museum");
        page.intro(MUSEUM_INTROS, Map.of());
        page.fact(MUSEUM_LOCATED, Map.of("port", m.port().name()));
        founding(page, m, MUSEUM_FOUNDED);
        page.noise(MUSEUM_NOISE, () -> Map.of("aord", article(ordinal(1 + random.nextInt(9))), "rooms",
                count(m.rooms()), "k", count(2000, 90000), "y", year(m.founded() + 5 + random.nextInt(60))));
        if (m.inventory()) {
            int audited = m.founded() + 10 + random.nextInt(60);
            page.appendix(String.format(Locale.ROOT, "Inventory record:\n\n```json\n{\"record\": \"%s-%d\", "
                    + "\"rooms\": %d, \"items\": %d, \"audited\": %d, \"insured\": %s}\n```", m.abbreviation(),
                    audited, m.rooms(), 50 + random.nextInt(900), audited, random.nextBoolean()));
        }
        return page.doc(m.id(), m.name());
    }

    private BeirDataset.Doc painting(Painting p) {
        Page page = new Page(art(p.title()), List.of("the painting", "the picture", "the work"), Pronoun.IT);
        page.intro(PAINTING_INTROS, Map.of("medium", article(p.medium().name()), "theme", p.theme().phrase(),
                "y", year(p.year())));
        world.depictionOf(p).ifPresent(d -> page.fact(DEPICTS, Map.of("ship", ship(d.ship().name()))));
        Authorship a = world.authorshipOf(p);
        if (a.doc().equals(p.id())) {
            page.fact(PAINTED_BY, Map.of("person", a.painter().name()));
        }
        Holding h = world.holdingOf(p);
        if (h.doc().equals(p.id())) {
            page.fact(HELD, Map.of("museum", h.museum().name()));
        }
        page.noise(PAINTING_NOISE, () -> Map.of("w", count(p.width()), "h", count(p.height()), "k",
                count(20, 4000), "y", year(p.year() + 3 + random.nextInt(50))));
        return page.doc(p.id(), p.title());
    }

    private BeirDataset.Doc port(Port p) {
        Page page = new Page(p.name(), List.of("the port", "the town"), Pronoun.IT);
        page.intro(PORT_INTROS, Map.of("province", p.province()));
        page.fact(WATER, Map.of("water", p.water(), "kind", p.river() ? "river" : "sea"));
        page.fact(FEATURE, Map.of("feature", p.feature()));
        page.noise(PORT_NOISE, () -> Map.of("ord", ordinal(p.wallCentury()), "k", count(p.inhabitants()),
                "n", count(20, 900), "y", year(1700 + random.nextInt(190))));
        return page.doc(p.id(), p.name());
    }

    private BeirDataset.Doc voyage(Voyage v) {
        String kind = v.name().substring(v.name().indexOf(' ') + 1).toLowerCase(Locale.ROOT);
        Page page = new Page("the " + v.name(), List.of("the voyage", "the " + kind), Pronoun.IT);
        page.intro(VOYAGE_INTROS, Map.of("ship", ship(v.ship().name()), "y", year(v.year())));
        page.fact(ROUTE, Map.of("from", v.from().name(), "to", v.to().name()));
        String shortName = "the " + v.ship().shortName();
        page.fact(CARGO, Map.of("cargo", v.cargo(), "short", shortName));
        String telling = pick(v.hazard().tellings()).replace("{ship}", random.nextBoolean() ? shortName : "the ship")
                .replace("{her}", "her");
        page.fact(HAZARD, Map.of("tell", telling));
        page.noise(VOYAGE_NOISE, () -> Map.of("days", count(v.days()), "k", count(20, 600), "cargo", v.cargo(),
                "n", count(8, 60)));
        return page.doc(v.id(), v.name());
    }

    private BeirDataset.Doc note(Build b) {
        return note(b.doc(), BUILD_NOTES, Map.of("y", year(b.ship().built()), "ship", ship(b.ship().name()),
                "yard", b.yard().name()));
    }

    private BeirDataset.Doc note(Command c) {
        return note(c.doc(), COMMAND_NOTES, Map.of("y", year(c.year()), "ship", ship(c.ship().name()),
                "person", c.captain().name()));
    }

    private BeirDataset.Doc note(Birth b) {
        return note(b.doc(), BIRTH_NOTES, Map.of("y", year(b.person().born()), "port", b.port().name(),
                "person", b.person().name()));
    }

    private BeirDataset.Doc note(Founding f) {
        return note(f.doc(), FOUNDING_NOTES, Map.of("y", year(f.org().founded()), "org", f.org().name(),
                "person", f.founder().name()));
    }

    private BeirDataset.Doc note(Wright w) {
        return note(w.doc(), WRIGHT_NOTES, Map.of("yard", w.yard().name(), "person", w.wright().name()));
    }

    private BeirDataset.Doc note(Holding h) {
        return note(h.doc(), HOLDING_NOTES, Map.of("y", year(h.acquired()), "no", number(h.doc()),
                "museum", h.museum().name(), "art", art(h.painting().title())));
    }

    private BeirDataset.Doc note(Authorship a) {
        return note(a.doc(), AUTHORSHIP_NOTES, Map.of("y", year(a.painting().year() + 5 + random.nextInt(60)),
                "no", number(a.doc()), "art", art(a.painting().title()), "person", a.painter().name()));
    }

    private BeirDataset.Doc note(String id, List<NoteForm> forms, Map<String, String> slots) {
        NoteForm form = pick(forms);
        return new BeirDataset.Doc(id, fill(form.title(), slots), capitalise(fill(form.text(), slots)));
    }

    private String number(String noteId) {
        return world.notes().stream().filter(n -> n.id().equals(noteId)).map(n -> Integer.toString(n.number()))
                .findFirst().orElseThrow();
    }

    /** A profile being written: its sentences, and how it refers to its subject. */
    private final class Page {
        private final String full;
        private final List<String> aliases;
        private final Pronoun pronoun;
        private final List<String> sentences = new ArrayList<>();
        private final Set<String> used = new HashSet<>();
        private String appendix = "";

        Page(String full, List<String> aliases, Pronoun pronoun) {
            this.full = full;
            this.aliases = aliases;
            this.pronoun = pronoun;
        }

        void intro(List<String> templates, Map<String, String> slots) {
            Map<String, String> all = new LinkedHashMap<>(slots);
            all.put("n", full);
            all.put("his", pronoun.possessive());
            sentences.add(capitalise(fill(pick(templates), all)));
        }

        /**
         * A sentence from {@code templates}: 60% of the time one that opens with the subject, as a pronoun; else any
         * of them, with an alias. Within a page a template is not used twice while others are left.
         */
        void fact(List<String> templates, Map<String, String> slots) {
            sentences.add(sentence(templates, slots));
        }

        void noise(List<String> templates, Supplier<Map<String, String>> slots) {
            noise(templates, true, slots);
        }

        /**
         * Fills the page up to 3–6 sentences with one or two noise sentences: {@code anywhere} after the intro, or at
         * the end where the noise is a later part of the story (a life's).
         */
        void noise(List<String> templates, boolean anywhere, Supplier<Map<String, String>> slots) {
            int n = Math.min(6 - sentences.size(), Math.max(3 - sentences.size(), 1 + random.nextInt(2)));
            for (int i = 0; i < n; i++) {
                String s = sentence(templates, slots.get());
                sentences.add(anywhere ? 1 + random.nextInt(sentences.size()) : sentences.size(), s);
            }
        }

        void appendix(String block) {
            appendix = "\n\n" + block;
        }

        BeirDataset.Doc doc(String id, String title) {
            return new BeirDataset.Doc(id, title, String.join(" ", sentences) + appendix);
        }

        private String sentence(List<String> templates, Map<String, String> slots) {
            List<String> fresh = templates.stream().filter(t -> !used.contains(t)).toList();
            List<String> choice = fresh.isEmpty() ? templates : fresh;
            List<String> opening = choice.stream().filter(t -> t.startsWith("{s}") || t.startsWith("{ss}")).toList();
            boolean usePronoun = !opening.isEmpty() && random.nextInt(10) < 6;
            String template = pick(usePronoun ? opening : choice);
            used.add(template);
            String alias = pick(aliases);
            Map<String, String> all = new LinkedHashMap<>(slots);
            all.put("s", usePronoun ? pronoun.subject() : alias);
            all.put("ss", usePronoun ? pronoun.possessive() : possessive(alias));
            all.put("o", alias);
            all.put("was", usePronoun && pronoun == Pronoun.THEY ? "were" : "was");
            all.put("his", pronoun.possessive());
            return capitalise(fill(template, all));
        }
    }

    private static String fill(String template, Map<String, String> slots) {
        Matcher m = SLOT.matcher(template);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String value = slots.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException("no value for {" + m.group(1) + "} in: " + template);
            }
            m.appendReplacement(b, Matcher.quoteReplacement(value));
        }
        return m.appendTail(b).toString();
    }

    static String capitalise(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    static String possessive(String name) {
        return name.endsWith("s") ? name + "'" : name + "'s";
    }

    /** "a brig", "an eagle", "an oil painting", "an 820-ton", but "a unicorn" (the sound, not the letter). */
    static String article(String noun) {
        boolean vowel = "aeiou8".indexOf(noun.charAt(0)) >= 0 && !noun.startsWith("uni");
        return (vowel ? "an " : "a ") + noun;
    }

    static String ship(String name) {
        return "the *" + name + "*";
    }

    static String art(String title) {
        return "\"" + title + "\"";
    }

    private static String list(List<String> items) {
        if (items.size() == 1) {
            return items.get(0);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " and " + items.get(items.size() - 1);
    }

    private static String ordinal(int n) {
        String suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : switch (n % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return n + suffix;
    }

    private static String year(int y) {
        return Integer.toString(y);
    }

    private static String count(int n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private String count(int low, int high) {
        return count(low + random.nextInt(high - low));
    }

    private <T> T pick(List<T> options) {
        return options.get(random.nextInt(options.size()));
    }
}
