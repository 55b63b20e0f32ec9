package dev.jpto.compiler.workdir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jpto.compiler.ir.Affine;
import dev.jpto.compiler.ir.Stmt;
import dev.jpto.compiler.ir.SubmitArg;
import dev.jpto.compiler.ir.TensorDecl;
import dev.jpto.compiler.ir.TensorExpr;
import dev.jpto.isa.DType;
import dev.jpto.runtime.CoreType;
import dev.jpto.runtime.Direction;
import java.util.List;
import org.junit.jupiter.api.Test;

class OrchestrationCodecTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyStatementArgumentAndViewRoundTrips() throws Exception {
        Affine i = Affine.var("i");
        TensorExpr view = new TensorExpr.Slice(new TensorExpr.Reshape(new TensorExpr.Ref("x"), new long[] {64, 64}),
                List.of(i.times(16), Affine.of(0)), new long[] {16, 64});
        List<Stmt> body = List.of(
                new Stmt.Alloc(new TensorDecl("t", DType.BF16, new long[] {16, 64})),
                new Stmt.For("i", Affine.of(0), Affine.of(4), 2, List.of(
                        new Stmt.Scope(List.of(new Stmt.Submit("k", CoreType.AIC, List.of(
                                new SubmitArg.TensorArg(view, Direction.INPUT),
                                new SubmitArg.TensorArg(new TensorExpr.Ref("t"), Direction.OUTPUT),
                                new SubmitArg.TensorArg(new TensorExpr.Ref("y"), Direction.INOUT),
                                new SubmitArg.TensorArg(new TensorExpr.Ref("y"), Direction.OUTPUT_EXISTING),
                                new SubmitArg.TensorArg(new TensorExpr.Ref("y"), Direction.NO_DEP),
                                new SubmitArg.IndexArg(i.times(3).plus(1)),
                                new SubmitArg.FloatArg(0.125))))))));
        String text = JSON.writeValueAsString(OrchestrationCodec.encodeBody(body));
        assertThat(text).contains("\"input\":{\"slice\":{\"reshape\":\"x\"").contains("\"index\":\"3*i + 1\"");
        assertThat(OrchestrationCodec.decodeBody(JSON.readTree(text), "$.body")).isEqualTo(body);
    }

    @Test
    void errorsNameThePathAndWhatWasExpected() throws Exception {
        assertThatThrownBy(() -> decode("[{\"for\": \"i\", \"start\": \"0\", \"end\": \"4\", \"body\": []}]"))
                .hasMessage("at $.body[0]: missing field 'step'");
        assertThatThrownBy(() -> decode("[{\"submit\": \"k\", \"core\": \"gpu\", \"args\": []}]"))
                .hasMessage("at $.body[0].core: unknown core type 'gpu' (expected aic, aiv or mix)");
        assertThatThrownBy(() -> decode("[{\"submit\": \"k\", \"core\": \"mix\", \"args\": []}]"))
                .hasMessageStartingWith("at $.body[0]: a mixed submit (\"core\": \"mix\") needs \"lanes\"");
        assertThatThrownBy(() -> decode("[{\"submit\": \"k\", \"core\": \"mix\", \"lanes\": {}, \"args\": []}]"))
                .hasMessage("at $.body[0].lanes: a mixed submit needs at least one of aic, aiv0, aiv1");
        assertThatThrownBy(() -> decode("[{\"submit\": \"k\", \"core\": \"mix\", \"lanes\": {\"aic\": \"mm\", "
                + "\"aiv0\": \"v\"}, \"args\": []}]"))
                .hasMessage("at $.body[0].submit: a mixed submit is named after its lanes joined by '+': expected "
                        + "\"mm+v\", got \"k\"");
        assertThatThrownBy(() -> decode("[{\"submit\": \"k\", \"core\": \"aiv\", \"lanes\": {\"aic\": \"k\"}, "
                + "\"args\": []}]"))
                .hasMessage("at $.body[0].lanes: 'lanes' belongs to a mixed submit (\"core\": \"mix\")");
        assertThat(decode("[{\"submit\": \"mm+v\", \"core\": \"mix\", \"lanes\": {\"aic\": \"mm\", \"aiv1\": \"v\"}, "
                + "\"args\": [], \"block_num\": 2, \"require_sync_start\": true}]"))
                .containsExactly(Stmt.Submit.mixed(new dev.jpto.compiler.ir.MixedLanes("mm", null, "v"), List.of(), 2,
                        null, List.of(), true));
        assertThatThrownBy(() -> decode("[{\"submit\": \"k\", \"core\": \"aiv\", \"args\": [{\"sideways\": \"x\"}]}]"))
                .hasMessageStartingWith("at $.body[0].args[0]: expected an argument");
        assertThatThrownBy(() -> decode("[{\"scope\": [], \"extra\": 1}]"))
                .hasMessageContaining("unexpected field 'extra'");
        assertThatThrownBy(() -> decode("[{\"alloc\": \"t\", \"dtype\": \"fp99\", \"shape\": [1]}]"))
                .hasMessageStartingWith("at $.body[0].dtype:");
        assertThatThrownBy(() -> decode("[{\"submit\": \"k\", \"core\": \"aiv\", \"args\": [{\"index\": \"2*\"}]}]"))
                .hasMessageStartingWith("at $.body[0].args[0].index: index expression '2*'");
        assertThatThrownBy(() -> decode("{}")).hasMessage("at $.body: expected an array, found object");
    }

    private static List<Stmt> decode(String json) throws Exception {
        JsonNode n = JSON.readTree(json);
        return OrchestrationCodec.decodeBody(n, "$.body");
    }
}
