// javac's own attribution as call-graph truth for bench/graph_oracles.py (`java`).
// Run as a single-file source program (JDK 11+): `java bench/JavaOracle.java ROOT LISTING`, LISTING naming one
// repository-relative .java file per line. Every file is parsed and attributed together (no classpath: calls into
// libraries stay unresolved, which is fine, since only the repository's own definitions are scored). Prints one JSON
// object per line, one per call site: {"file", "line", "name", "truth"} where truth is [file, line] of the
// declaration in the repository (a constructor call's truth is its class), "external" (a library's method), or
// null (javac could not attribute the call, e.g. a receiver typed by a missing library).
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ExpressionTree;
import com.sun.source.tree.IdentifierTree;
import com.sun.source.tree.MemberSelectTree;
import com.sun.source.tree.MethodInvocationTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class JavaOracle {
  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]).toRealPath();
    List<File> files = new ArrayList<>();
    for (String rel : Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8)) {
      if (!rel.isBlank()) files.add(root.resolve(rel).toFile());
    }
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StandardJavaFileManager manager = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8);
    // -proc:none: no annotation processors; errors (missing libraries) are expected and collected, not printed.
    List<String> options = List.of("-proc:none", "-Xmaxerrs", "1000000", "-encoding", "UTF-8");
    JavacTask task = (JavacTask) compiler.getTask(
        null, manager, diagnostics, options, null, manager.getJavaFileObjectsFromFiles(files));
    Iterable<? extends CompilationUnitTree> units = task.parse();
    task.analyze();
    Trees trees = Trees.instance(task);
    SourcePositions positions = trees.getSourcePositions();
    StringBuilder out = new StringBuilder();
    for (CompilationUnitTree unit : units) {
      String file = root.relativize(Path.of(unit.getSourceFile().toUri()).toRealPath()).toString();
      new TreePathScanner<Void, Void>() {
        @Override
        public Void visitMethodInvocation(MethodInvocationTree call, Void unused) {
          ExpressionTree select = call.getMethodSelect();
          String name = null;
          if (select instanceof IdentifierTree) name = ((IdentifierTree) select).getName().toString();
          else if (select instanceof MemberSelectTree) name = ((MemberSelectTree) select).getIdentifier().toString();
          if (name != null && !name.equals("this") && !name.equals("super")) {
            long end = positions.getEndPosition(unit, select);
            long line = unit.getLineMap().getLineNumber(end - 1);
            emit(file, line, name, truth(trees.getElement(new TreePath(getCurrentPath(), select))));
          }
          return super.visitMethodInvocation(call, unused);
        }

        @Override
        public Void visitNewClass(NewClassTree created, Void unused) {
          Tree type = created.getIdentifier();
          // (an enum constant's declaration is a `new` to javac, not a call written in the source)
          Element declared = trees.getElement(getCurrentPath().getParentPath());
          boolean constant = declared != null && declared.getKind() == ElementKind.ENUM_CONSTANT;
          if (!constant && created.getClassBody() == null && type instanceof IdentifierTree) {
            String name = ((IdentifierTree) type).getName().toString();
            long line = unit.getLineMap().getLineNumber(positions.getStartPosition(unit, type));
            Element element = trees.getElement(getCurrentPath());
            emit(file, line, name, truth(element == null ? null : element.getEnclosingElement()));
          }
          return super.visitNewClass(created, unused);
        }

        void emit(String file, long line, String name, String truth) {
          out.append("{\"file\":").append(quote(file)).append(",\"line\":").append(line)
              .append(",\"name\":").append(quote(name)).append(",\"truth\":").append(truth).append("}\n");
        }

        String truth(Element element) {
          if (element == null || element.asType().getKind().toString().equals("ERROR")) return "null";
          if (!(element instanceof ExecutableElement) && element.getKind() != ElementKind.CLASS
              && element.getKind() != ElementKind.ENUM && element.getKind() != ElementKind.RECORD) return "null";
          TreePath declared = trees.getPath(element);
          if (declared == null) return "\"external\"";
          CompilationUnitTree home = declared.getCompilationUnit();
          long start = positions.getStartPosition(home, declared.getLeaf());
          try {
            String where = root.relativize(Path.of(home.getSourceFile().toUri()).toRealPath()).toString();
            // The declaration's qualified name inside its file (`Outer.Inner.method`): overloads share one graph
            // node, found by this name whichever overload javac picked.
            StringBuilder qualified = new StringBuilder(element.getSimpleName().toString());
            for (Element outer = element.getEnclosingElement(); outer != null
                && (outer.getKind().isClass() || outer.getKind().isInterface()); outer = outer.getEnclosingElement()) {
              qualified.insert(0, outer.getSimpleName() + ".");
            }
            return "[" + quote(where) + "," + home.getLineMap().getLineNumber(start) + "," + quote(qualified.toString()) + "]";
          } catch (Exception e) {
            return "null";
          }
        }
      }.scan(unit, null);
    }
    System.out.print(out);
  }

  static String quote(String text) {
    StringBuilder b = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
