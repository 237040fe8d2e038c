// Starts DynamoDB Local listening on 127.0.0.1 only. DynamoDB Local has no
// option for the address: its DynamoDBProxyServer builds a Jetty server
// with new Server(port), which listens on every interface. This builds the
// server from the same command line, sets the host of its connectors
// before it starts, and starts it. Reflection only, so it compiles
// without DynamoDB Local's jars.
public class LoopbackLauncher {
    public static void main(String[] args) throws Throwable {
        Class<?> runner = Class.forName("software.amazon.dynamodb.services.local.main.ServerRunner");
        Object proxy = runner.getMethod("createServerFromCommandLineArgs", String[].class).invoke(null, (Object) args);
        java.lang.reflect.Field f = proxy.getClass().getDeclaredField("server");
        f.setAccessible(true);
        Object server = f.get(proxy);
        Object[] connectors = (Object[]) server.getClass().getMethod("getConnectors").invoke(server);
        if (connectors.length == 0) {
            throw new IllegalStateException("DynamoDB Local's server has no connector to bind to 127.0.0.1");
        }
        for (Object c : connectors) {
            c.getClass().getMethod("setHost", String.class).invoke(c, "127.0.0.1");
        }
        proxy.getClass().getMethod("start").invoke(proxy);
    }
}
