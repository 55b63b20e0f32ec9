package dev.jpto.compiler.ir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class AffineTest {
    private static final String[] VARS = {"i", "j", "kk", "_t0"};

    @Property(tries = 200, seed = "42")
    void textFormRoundTripsAndEvaluatesLikeTheFormula(@ForAll @IntRange(min = -1000, max = 1000) int constant,
            @ForAll @Size(4) List<@IntRange(min = -50, max = 50) Integer> coeffs,
            @ForAll @Size(4) List<@IntRange(min = -20, max = 20) Integer> values) {
        List<Affine.Term> terms = new ArrayList<>();
        long expected = constant;
        java.util.HashMap<String, Long> env = new java.util.HashMap<>();
        for (int v = 0; v < VARS.length; v++) {
            terms.add(new Affine.Term(VARS[v], coeffs.get(v)));
            env.put(VARS[v], (long) values.get(v));
            expected += (long) coeffs.get(v) * values.get(v);
        }
        Affine a = new Affine(constant, terms);
        assertThat(Affine.parse(a.toString())).isEqualTo(a);
        assertThat(a.eval(env)).isEqualTo(expected);
    }

    @Test
    void printsReadably() {
        Affine a = Affine.var("i").times(64).plus(Affine.var("j")).minus(3);
        assertThat(a).hasToString("64*i + j - 3");
        assertThat(Affine.var("i").times(-1)).hasToString("-i");
        assertThat(Affine.of(0)).hasToString("0");
        assertThat(Affine.var("i").minus(Affine.var("i"))).isEqualTo(Affine.of(0));
    }

    @Test
    void rejectsMalformedText() {
        assertThatThrownBy(() -> Affine.parse("2*")).hasMessageContaining("'2*'").hasMessageContaining("variable");
        assertThatThrownBy(() -> Affine.parse("i j")).hasMessageContaining("expected '+' or '-'");
        assertThatThrownBy(() -> Affine.parse("x*3")).hasMessageContaining("position 0");
        assertThatThrownBy(() -> Affine.parse("")).hasMessageContaining("empty");
    }

    @Test
    void evalNamesAMissingVariable() {
        assertThatThrownBy(() -> Affine.var("q").eval(Map.of())).hasMessageContaining("'q'");
    }
}
