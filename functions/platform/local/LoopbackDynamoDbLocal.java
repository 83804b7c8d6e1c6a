// Starts AWS's DynamoDB Local listening on 127.0.0.1 only.
//
// DynamoDB Local's command line has no bind-address option: its own main() gives Jetty a bare port,
// so it listens on every interface, and it accepts any signature, so anyone on the network could
// read every row. This launcher builds the server through DynamoDB Local's own API (the same
// command-line arguments), pins each Jetty connector's host to the loopback address before the
// server starts, and refuses to start when it cannot (a future DynamoDB Local with another
// layout must fail loudly, never fall back to listening everywhere).
//
// It also exits when its standard input closes: the Node process that started it holds the other
// end, so DynamoDB Local never outlives it, even when Node is killed without running exit handlers.
//
// Run as a Java single-file source program (`java -cp <DynamoDBLocal.jar and its lib> this-file
// <args>`): no build step and no committed class file; the JRE's jdk.compiler module compiles it in
// memory (functions/platform/local/dynamodb-local.ts starts it, bin/ensure-test-deps.sh checks the
// module is there).
import java.lang.reflect.Field;
import org.eclipse.jetty.server.AbstractNetworkConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public final class LoopbackDynamoDbLocal {
  private static final String LOOPBACK = "127.0.0.1";

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field serverField = DynamoDBProxyServer.class.getDeclaredField("server");
    serverField.setAccessible(true);
    Server jetty = (Server) serverField.get(proxy);
    Connector[] connectors = jetty.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local has no Jetty connector to bind to " + LOOPBACK);
    for (Connector connector : connectors) {
      if (!(connector instanceof AbstractNetworkConnector)) {
        throw new IllegalStateException("cannot bind DynamoDB Local's connector " + connector + " to " + LOOPBACK);
      }
      ((AbstractNetworkConnector) connector).setHost(LOOPBACK);
    }
    exitWhenParentGoes();
    proxy.start();
    for (Connector connector : connectors) {
      String host = ((AbstractNetworkConnector) connector).getHost();
      if (!LOOPBACK.equals(host)) {
        proxy.stop();
        throw new IllegalStateException("DynamoDB Local listens on " + host + ", expected " + LOOPBACK);
      }
    }
  }

  private static void exitWhenParentGoes() {
    Thread watchdog = new Thread(() -> {
      try {
        while (System.in.read() != -1) {
          // The parent never writes; anything it might send is ignored.
        }
      } catch (java.io.IOException closed) {
        // A broken pipe means the parent is gone, as end of input does.
      }
      System.exit(0);
    }, "parent-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }
}
