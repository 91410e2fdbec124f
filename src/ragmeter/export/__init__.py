"""Run folders sent to the tools teams already track experiments with (extra ``mlflow``)."""
