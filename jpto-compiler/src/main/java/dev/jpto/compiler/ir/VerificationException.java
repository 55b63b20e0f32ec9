package dev.jpto.compiler.ir;

import java.util.List;

/** The program failed verification; {@link #errors()} lists every finding, the message shows them one per line. */
public final class VerificationException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<IrError> errors;

    public VerificationException(String programName, List<IrError> errors) {
        super(format(programName, errors));
        this.errors = List.copyOf(errors);
    }

    public List<IrError> errors() {
        return errors;
    }

    private static String format(String programName, List<IrError> errors) {
        StringBuilder sb = new StringBuilder("program '").append(programName).append("' is invalid (")
                .append(errors.size()).append(errors.size() == 1 ? " error)" : " errors)");
        for (IrError e : errors) {
            sb.append("\n  ").append(e.where()).append(": ").append(e.what());
        }
        return sb.toString();
    }
}
