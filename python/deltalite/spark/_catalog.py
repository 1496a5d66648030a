"""spark.catalog: the calls that ask what tables and views exist."""

from . import _sql


class Catalog:
    def __init__(self, session):
        self._session = session

    def tableExists(self, tableName, dbName=None):
        name = f"{dbName}.{tableName}" if dbName else tableName
        if self._session._view_sql(name) is not None:
            return True
        return self._session._detail(_sql.quote_name(name)) is not None

    def dropTempView(self, viewName):
        return self._session._views.pop(viewName.lower(), None) is not None

    def setCurrentDatabase(self, dbName):
        self._session._run(f"USE {_sql.quote_ident(dbName)}")

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        raise NotImplementedError(f"Catalog.{name} is not in deltalite.spark's subset; spark.sql('SHOW TABLES') "
                                  f"lists tables")
