package org.logz.testkit.examples;

import java.util.List;
import java.util.Optional;

import org.logz.model.BaseRate;
import org.logz.model.Likelihood;
import org.logz.model.PseudoMarginal;
import org.logz.model.RandomRbm;
import org.logz.model.Rbm;
import org.logz.model.data.DataSequence;
import org.logz.model.gmm.GaussianMixture;
import org.logz.model.gpc.TemperedGpc;
import org.logz.model.gpc.WhitenedGpc;
import org.logz.model.ising.Ising;
import org.logz.model.latent.LatentFiles;
import org.logz.model.mixture.MixtureFiles;
import org.logz.model.rbm.MarginalRbm;
import org.logz.model.rbm.RbmSequence;
import org.logz.model.rbm.RbmSpline;
import org.logz.model.rbm.TemperedRbm;
import org.logz.model.toy.GaussianToy;
import org.logz.path.GpcSequence;
import org.logz.path.UnitOrder;
import org.logz.testkit.GpcKernelContract;
import org.logz.testkit.ModelExample;

/** The contracts' small instance of each model logz has, found by ServiceLoader like the kernel providers. */
public final class ModelExamples {
    private ModelExamples() {
    }

    public static final class TemperedRbmExample implements ModelExample {
        @Override
        public Object model() {
            return new TemperedRbm(RandomRbm.create(11, 5, 1.0, 3), BaseRate.uniform(11));
        }
    }

    public static final class MarginalRbmExample implements ModelExample {
        @Override
        public Object model() {
            return new MarginalRbm(RandomRbm.create(11, 5, 1.0, 3));
        }
    }

    /** A moment-averages path with one interior knot: half the target's parameters, no fit needed. */
    public static final class RbmSplineExample implements ModelExample {
        @Override
        public Object model() {
            Rbm target = RandomRbm.create(11, 5, 1.0, 3);
            BaseRate base = BaseRate.uniform(11);
            Rbm half = new Rbm(11, 5, scaled(target.weights()), scaled(target.visibleBias()), scaled(target.hiddenBias()));
            return new RbmSpline(List.of(RbmSpline.baseRbm(base, 5), half, target), new double[] {0, 0.4, 1}, base,
                    "one knot at half the target's parameters");
        }

        private static float[] scaled(float[] v) {
            float[] out = v.clone();
            for (int i = 0; i < out.length; i++) {
                out[i] *= 0.5f;
            }
            return out;
        }
    }

    public static final class IsingExample implements ModelExample {
        @Override
        public Object model() {
            return new Ising(4);
        }
    }

    public static final class GaussianToyExample implements ModelExample {
        @Override
        public Object model() {
            return GaussianToy.habeck();
        }
    }

    public static final class TemperedGpcExample implements ModelExample {
        @Override
        public Object model() {
            return TemperedGpc.fromPrior(GpcKernelContract.problem());
        }
    }

    public static final class PseudoMarginalExample implements ModelExample {
        @Override
        public Object model() {
            return new PseudoMarginal(LatentFiles.glmm("sim8"), new Likelihood.Estimated(2, Likelihood.Proposal.LAPLACE));
        }
    }

    public static final class RbmSequenceExample implements ModelExample {
        @Override
        public Object model() {
            return new RbmSequence(RandomRbm.create(11, 5, 1.0, 3), UnitOrder.natural(11), Optional.empty());
        }
    }

    public static final class GpcSequenceExample implements ModelExample {
        @Override
        public Object model() {
            return new GpcSequence(GpcKernelContract.problem(), UnitOrder.natural(6));
        }
    }

    public static final class DataSequenceExample implements ModelExample {
        @Override
        public Object model() {
            return new DataSequence(MixtureFiles.read("sim12"), UnitOrder.natural(12));
        }
    }

    public static final class MixtureExample implements ModelExample {
        @Override
        public Object model() {
            return MixtureFiles.read("sim12");
        }
    }

    public static final class GlmmExample implements ModelExample {
        @Override
        public Object model() {
            return LatentFiles.glmm("sim8");
        }
    }

    public static final class StochasticVolatilityExample implements ModelExample {
        @Override
        public Object model() {
            return LatentFiles.stochasticVolatility("sim200");
        }
    }

    /** Three dimensions, unequal widths, the default (adaptive, jittered) HMC. */
    public static final class GmmExample implements ModelExample {
        @Override
        public Object model() {
            return new GaussianMixture(3, 3, 1, 0.6, 0.4, 2, org.logz.kernel.HmcSettings.defaults());
        }
    }

    /** The contracts' GP classifier from EP's q, in whitened coordinates for HMC with ARM Fig. 2's settings. */
    public static final class WhitenedGpcExample implements ModelExample {
        @Override
        public Object model() {
            org.logz.model.GpClassification m = GpcKernelContract.problem();
            org.logz.estimate.ep.ProbitEp.Result ep = org.logz.estimate.ep.ProbitEp.run(m,
                    org.logz.estimate.ep.ProbitEp.Settings.defaults());
            return new WhitenedGpc(TemperedGpc.fromEp(m, ep.siteTau(), ep.siteNu()),
                    WhitenedGpc.paperSettings(TemperedGpc.Start.EP));
        }
    }
}
