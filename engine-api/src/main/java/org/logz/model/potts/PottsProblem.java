package org.logz.model.potts;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.logz.backend.ParticleBackend;
import org.logz.base.UserException;
import org.logz.estimate.AnnealedImportanceSampling.Start;
import org.logz.numeric.Decimal;
import org.logz.path.TemperedPath;
import org.logz.problem.ModelFamily;
import org.logz.problem.Problem;
import org.logz.problem.Reference;

/**
 * {@code potts:q=Q,L=N[,J=2][,moves=heatbath|metropolis]}: the q-state Potts model on the N × N torus at β = 1 from the
 * uniform distribution (Habeck 2017, §6.2: q = 10, L = 32, J = 2). Exact log Z by {@link PottsExact} within its limit.
 */
public record PottsProblem(Potts model) implements Problem {
    /** Habeck's coupling. */
    public static final double DEFAULT_COUPLING = 2;
    static final String SYNTAX = "potts:q=Q,L=N[,J=2][,moves=heatbath|metropolis]";
    private static final Set<String> KEYS = Set.of("q", "l", "j", "moves");

    public static PottsProblem parse(String spec) {
        Map<String, String> p = new LinkedHashMap<>();
        int colon = spec.indexOf(':');
        for (String part : colon < 0 ? new String[0] : spec.substring(colon + 1).split(",", -1)) {
            int eq = part.indexOf('=');
            String key = eq < 0 ? part.trim() : part.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            if (eq <= 0 || eq == part.length() - 1 || !KEYS.contains(key)) {
                throw new UserException("--model " + spec + ": write " + SYNTAX + (eq > 0 && !KEYS.contains(key)
                        ? " ('" + key + "' is not one of q, L, J, moves)" : ""));
            }
            if (p.put(key, part.substring(eq + 1).trim()) != null) {
                throw new UserException("--model " + spec + ": " + key.toUpperCase(Locale.ROOT).replace("MOVES", "moves")
                        + " is given twice");
            }
        }
        if (!p.containsKey("q") || !p.containsKey("l")) {
            throw new UserException("--model " + spec + ": write " + SYNTAX + " (q and L are required)");
        }
        int colours = integer(spec, "q", p.get("q"));
        int size = integer(spec, "L", p.get("l"));
        double coupling = DEFAULT_COUPLING;
        if (p.containsKey("j")) {
            coupling = Decimal.parse(p.get("j")).orElseThrow(() -> new UserException("--model " + spec + ": J = '"
                    + p.get("j") + "' is not a finite decimal number"));
        }
        Potts.Moves moves = Potts.Moves.HEATBATH;
        if (p.containsKey("moves")) {
            moves = switch (p.get("moves").toLowerCase(Locale.ROOT)) {
                case "heatbath" -> Potts.Moves.HEATBATH;
                case "metropolis" -> Potts.Moves.METROPOLIS;
                default -> throw new UserException("--model " + spec + ": moves must be heatbath or metropolis, got '"
                        + p.get("moves") + "'");
            };
        }
        try {
            return new PottsProblem(new Potts(colours, size, coupling, moves));
        } catch (UserException e) {
            throw new UserException("--model " + spec + ": " + e.getMessage());
        }
    }

    private static int integer(String spec, String key, String value) {
        if (!value.matches("[+-]?[0-9]{1,9}")) {
            throw new UserException("--model " + spec + ": " + key + " = '" + value + "' must be an integer");
        }
        return Decimal.parseInt(value);
    }

    /** J as the spec writes it: 2 rather than 2.0. */
    static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e9 ? Long.toString((long) value) : Double.toString(value);
    }

    @Override
    public ModelFamily family() {
        return new PottsFamily();
    }

    @Override
    public Description describe() {
        return new Description("potts:q=" + model.colours() + ",L=" + model.size() + ",J=" + number(model.coupling())
                + (model.moves() == Potts.Moves.HEATBATH ? "" : ",moves=" + model.moves().label()), null, null,
                model.sites(), null);
    }

    /**
     * The transfer matrix's value where it takes at most {@value #QUICK_WORK} operations (well under a second) or,
     * asked for ({@code --compare-exact}), up to {@link PottsExact#MAX_WORK}.
     */
    @Override
    public Optional<Double> exactLogZ(boolean requested) {
        double work = PottsExact.work(model.colours(), model.size());
        return work <= QUICK_WORK || requested && work <= PottsExact.MAX_WORK ? Optional.of(PottsExact.logZ(model))
                : Optional.empty();
    }

    /** Where the transfer matrix cannot go, the low-temperature expansion deep in the ordered phase. */
    @Override
    public Optional<Reference> storedReference() {
        return PottsLowTemperature.reference(model);
    }

    /** The work below which every estimate reports the exact value unasked. */
    static final double QUICK_WORK = 1e8;

    @Override
    public Exact exact() {
        return new Exact(PottsExact.logZ(model), "transfer matrix", null);
    }

    /** Habeck writes log(Z/q^N); log Z here includes {@code N ln q}. */
    @Override
    public Optional<Convention> convention() {
        return Optional.of(new Convention("N ln q", model.logZ0()));
    }

    @Override
    public Potts temperedModel(ParticleBackend backend, PathOptions options) {
        return model;
    }

    /**
     * {@code ground} (default; Habeck §6.1's start for Ising, {@link Potts#groundStates}), {@code ground:B} (then B
     * sweeps at β = 1), {@code forward[:G]} or {@code gibbs:B}.
     */
    @Override
    public Start reverseStart(String spec, TemperedPath path, int chains, PathOptions options) {
        return Problem.ground(spec, model::groundStates, chains);
    }
}
